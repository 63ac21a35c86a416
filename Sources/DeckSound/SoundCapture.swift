import DeckDesktop
import DeckLog
import Foundation

/// One routing and one recording of the computer's sound, shared by every consumer (the viewer now, a
/// recording later): the first subscriber routes the sound to our sink and starts recording its monitor, the
/// last one to leave stops it and restores the speakers.
///
/// Everything that talks to the sound server runs on one serial queue, in the order it was asked for, so a
/// stop followed at once by a start restores and then routes again, never the other way round. Packets are
/// handed to the consumers on libpulse's thread.
public final class SoundCapture: @unchecked Sendable {
    private let queue = DispatchQueue(label: "touchdeck.sound")
    private let server: String?
    private let store: RoutingRecordStore
    private let log: Logger
    /// The sink the speakers are (the volume gauge reads it); nil while not routed.
    private let speakersName = LockedValue<String?>(nil)
    private let consumers = LockedValue<[UInt64: SoundConsumer]>([:])
    private let nextId = LockedValue<UInt64>(0)
    // Only on `queue`:
    private var connection: PulseConnection?
    private var router: SoundRouter?
    private var recorder: PulseRecorder?
    private var retrying = false

    /// Talks to `server` (nil: `$PULSE_SERVER` or the default); `store` keeps the routing record. Undoes, on
    /// its queue, a routing a crash left behind.
    public init(server: String? = nil, store: RoutingRecordStore, log: Logger) {
        self.server = server
        self.store = store
        self.log = log
        speakersName.set(store.load()?.previousDefault)
        queue.async { self.recoverAtStart() }
    }

    /// The speakers' sink while our sink is the default, for the volume gauge.
    public var speakers: String? { speakersName.get() }

    /// Adds a consumer; `started` hears (on the sound queue) whether sound runs. Returns at once.
    public func subscribe(_ consumer: @escaping SoundConsumer, started: @escaping @Sendable (SoundError?) -> Void)
        -> SoundSubscription
    {
        let id = nextId.update { value -> UInt64 in
            value += 1
            return value
        }
        queue.async {
            do {
                if self.recorder == nil { try self.start() }
                self.consumers.update { $0[id] = consumer }
                started(nil)
            } catch {
                started(error as? SoundError ?? .refused("\(error)"))
            }
        }
        return SoundSubscription { self.queue.async { self.remove(id) } }
    }

    /// Undoes a routing a host that was killed left behind, for `touchdeck doctor --fix` while no host runs:
    /// the streams go back, the default sink too, our sink goes. True when there was one to undo.
    public static func undoLeftover(server: String? = nil, store: RoutingRecordStore) throws -> Bool {
        let connection = try PulseConnection(server: server) { _ in }
        let found = try store.load() != nil || connection.sinks().contains { $0.name == SoundRouter.sinkName }
        guard found else { return false }
        try SoundRouter(server: connection, store: store).recover()
        return true
    }

    /// Returns once everything asked so far is done (a restore before the host exits).
    public func settle() { queue.sync {} }

    // MARK: On the queue

    private func recoverAtStart() {
        guard store.load() != nil else { return }  // without a record there is nothing to undo; no server needed
        do {
            try ensureRouter().recover()
            log.notice("undid the sound routing a previous run left behind")
        } catch {
            log.notice("could not undo the sound routing a previous run left behind: \(error)")
        }
    }

    private func ensureRouter() throws -> SoundRouter {
        if let connection, connection.isReady, let router { return router }
        recorder = nil
        let connection = try PulseConnection(server: server) { [weak self] event in self?.heard(event) }
        let router = SoundRouter(server: connection, store: store) { [speakersName] in speakersName.set($0) }
        self.connection = connection
        self.router = router
        return router
    }

    private func start() throws {
        let router = try ensureRouter()
        let monitor = try router.route()
        do {
            recorder = try PulseRecorder(
                connection!, source: monitor,
                deliver: { [consumers] samples, micros in
                    for consumer in consumers.get().values { consumer(samples, micros) }
                }, ended: { [self] in queue.async { self.recordingEnded() } })
        } catch {
            try? router.restore()
            throw error
        }
        log.notice("sound routed to \(SoundRouter.sinkName) and recorded from \(monitor)")
    }

    private func remove(_ id: UInt64) {
        let left = consumers.update { list -> Int in
            list[id] = nil
            return list.count
        }
        guard left == 0, let router else { return }
        recorder?.stop()
        recorder = nil
        retrying = false
        guard router.record != nil else { return }
        do {
            try router.restore()
            log.notice("sound restored to the speakers")
        } catch {
            log.notice("could not restore the sound routing (the next start undoes it): \(error)")
        }
    }

    /// The recording stopped by itself (the sound server went away or restarted): while anyone listens, the
    /// routing and the recording are set up again, every 2 s until the server answers.
    private func recordingEnded() {
        guard recorder != nil else { return }  // stopped on purpose meanwhile
        recorder = nil
        log.notice("the sound recording ended; starting it again")
        retry()
    }

    private func retry() {
        guard recorder == nil, !consumers.get().isEmpty else {
            retrying = false
            return
        }
        do {
            try start()
            retrying = false
        } catch {
            if !retrying { log.notice("sound could not start again (trying every 2 s): \(error)") }
            retrying = true
            queue.asyncAfter(deadline: .now() + 2) { [weak self] in self?.retry() }
        }
    }

    /// On libpulse's thread: a new stream or another default sink; the routing follows on the queue.
    private func heard(_ event: PulseConnection.Event) {
        queue.async {
            guard self.recorder != nil, let router = self.router else { return }
            do { try router.follow() } catch {
                self.log.notice("the sound routing could not follow a change: \(error)")
            }
        }
    }
}
