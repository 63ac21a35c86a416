import DeckActions
import DeckScreen
import Dispatch
import Foundation

/// GNOME on Wayland, through Mutter's D-Bus APIs (SPEC §7): the monitors (DisplayConfig), screen captures
/// (`MutterCapture`: ScreenCast + PipeWire) and input (RemoteDesktop), as a `ScreenSource` and an `InputSink`.
///
/// `@unchecked Sendable`: the bus and the sessions are touched only on `queue`, which also keeps input events in
/// the order they were asked for; `captures` is guarded by `lock`.
public final class MutterDesktop: @unchecked Sendable {
    private let queue = DispatchQueue(label: "touchdeck.mutter")
    private var bus: SessionBus?
    /// A session for input while no capture runs (keys and buttons need no stream); closed after `inputIdle`
    /// seconds without use, since GNOME Shell shows an open remote-desktop session in its top bar.
    private var inputOnly: MutterSession?
    private var inputOnlyUses = 0
    private let inputIdle: Double
    private let lock = NSLock()
    private var captures: [MutterSession] = []

    /// A desktop whose input-only session closes after `inputIdle` seconds without use.
    public init(inputIdle: Double = 30) { self.inputIdle = inputIdle }

    /// Whether an input-only session is open now (for tests).
    var hasInputOnlySession: Bool { queue.sync { inputOnly != nil } }

    /// Whether Mutter's ScreenCast and RemoteDesktop services are on the session bus now.
    public static func isAvailable() -> Bool {
        guard let bus = try? SessionBus() else { return false }
        return bus.hasOwner(MutterSession.screenCast) && bus.hasOwner(MutterSession.remoteDesktop)
    }

    /// Monitors, one-shot grabs (a short capture's first frame) and captures through Mutter.
    public var screen: ScreenSource {
        ScreenSource(
            monitors: { try await self.onQueue { bus throws(ScreenSourceError) in try Self.monitors(bus) } },
            grab: { monitor in try await self.grab(monitor) },
            capture: { monitor, fps, handlers in
                try MutterCapture(
                    desktop: self, bus: try self.openBusOnQueue(), monitor: monitor, fps: fps, handlers: handlers)
            })
    }

    private static func monitors(_ bus: SessionBus) throws(ScreenSourceError) -> [Monitor] {
        do { return try MutterMonitors.current(on: bus) } catch { throw screenError(error) }
    }

    /// Runs `body` on the queue with the bus.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (SessionBus) throws(ScreenSourceError) -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(ScreenSourceError) in try body(try self.openBus()) })
            }
        }
    }

    /// The bus, from any thread but the queue's.
    func openBusOnQueue() throws(ScreenSourceError) -> SessionBus {
        try queue.sync { Result { () throws(ScreenSourceError) in try openBus() } }.get()
    }

    /// The bus, connected on first use (on `queue`).
    private func openBus() throws(ScreenSourceError) -> SessionBus {
        if let bus { return bus }
        do { bus = try SessionBus() } catch { throw Self.screenError(error) }
        return bus!
    }

    /// A ScreenSourceError for a D-Bus failure: no bus or no Mutter → noDisplay; anything else is kept as text.
    static func screenError(_ error: DBusError) -> ScreenSourceError {
        switch error {
        case .noBus: .noDisplay
        case .failed(let name, _) where name == "org.freedesktop.DBus.Error.ServiceUnknown": .noDisplay
        case .failed(_, let message): .captureFailed("Mutter: \(message)")
        case .badReply(let text), .timedOut(let text): .captureFailed("Mutter: \(text)")
        }
    }

    // MARK: Input

    func inputSessionStarted(_ session: MutterSession) { lock.withLock { captures.append(session) } }
    func inputSessionEnded(_ session: MutterSession) { lock.withLock { captures.removeAll { $0 === session } } }

    /// Input through the newest running capture's session, else through a session of its own (no pointer
    /// motion then: Mutter places the pointer only in a stream's coordinates).
    public var input: InputSink {
        RemoteInput.sink { (_, keysym, body: @escaping @Sendable (MutterSession) throws(DBusError) -> Void) in
            try await self.inject(keysym: keysym, body)
        }
    }

    /// On the queue: counts a use of the input-only session and closes it `inputIdle` seconds later unless it was
    /// used again meanwhile.
    private func closeWhenIdle() {
        inputOnlyUses += 1
        let use = inputOnlyUses
        queue.asyncAfter(deadline: .now() + inputIdle) {
            guard use == self.inputOnlyUses, let session = self.inputOnly else { return }
            session.stop()
            self.inputOnly = nil
        }
    }

    private func inject(keysym: UInt32? = nil, _ body: @escaping @Sendable (MutterSession) throws(DBusError) -> Void)
        async throws
    {
        let failure: InputSinkError? = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.injectNow(keysym: keysym, body)) }
        }
        if let failure { throw failure }
    }

    private func injectNow(keysym: UInt32?, _ body: (MutterSession) throws(DBusError) -> Void) -> InputSinkError? {
        guard let session = inputSession() else { return .noDisplay }
        do {
            try body(session)
            return nil
        } catch {
            return MutterInput.failure(error, keysym: keysym, droppedSession: { forget(session) })
        }
    }

    /// Runs `body` on the queue (where `inputSession` and `forget` may be called) and returns what it returns.
    func onInputQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: body()) } }
    }

    /// On the queue: the newest running capture's session, else the input-only one (opened when missing); nil
    /// when Mutter cannot be reached.
    func inputSession() -> MutterSession? {
        if let capture = lock.withLock({ captures.last(where: { !$0.isStopped }) }) { return capture }
        if let inputOnly, !inputOnly.isStopped {
            closeWhenIdle()
            return inputOnly
        }
        guard let bus = try? openBus(), let opened = try? MutterSession(bus: bus, monitor: nil) else { return nil }
        inputOnly = opened
        closeWhenIdle()
        return opened
    }

    /// On the queue: after a failed call, forgets `session` if it is the input-only one (the next call opens
    /// another).
    func forget(_ session: MutterSession) {
        if session === inputOnly { inputOnly = nil }
    }
}
