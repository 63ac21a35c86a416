import Foundation

extension ScreenSource {
    /// The same source, but captures of one monitor are shared: the first consumer starts the back-end's
    /// capture, later ones join it, and it stops when the last one stops (DESIGN.md#recording: a recording and a viewer
    /// of the same monitor share one capture, each with its own encoder). The capture runs at the highest rate
    /// any consumer asked for; each consumer still gets at most its own rate.
    public func sharingCaptures() -> ScreenSource {
        let hub = CaptureHub(start: capture)
        return ScreenSource(
            monitors: monitors, grab: grab,
            capture: { monitor, fps, handlers in try hub.join(monitor, fps: fps, handlers: handlers) },
            needsApproval: needsApproval)
    }
}

/// The running shared captures, one per monitor id. Joins and leaves are serialised by `lock`; frames are
/// handed on under each consumer's own lock only.
final class CaptureHub: @unchecked Sendable {
    private let start: StartCapture
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var running: [Int: SharedCapture] = [:]

    init(start: @escaping StartCapture) { self.start = start }

    func join(_ monitor: Monitor, fps: Int, handlers: CaptureHandlers) throws -> any ScreenCapture {
        try lock.withLock {
            if let shared = running[monitor.id], shared.monitor == monitor, shared.isRunning {
                return shared.add(fps: fps, handlers: handlers)
            }
            let shared = SharedCapture(monitor: monitor) { [weak self] shared in self?.forget(shared) }
            let consumer = shared.add(fps: fps, handlers: handlers)
            try shared.begin(start, fps: fps)
            running[monitor.id] = shared
            return consumer
        }
    }

    private func forget(_ shared: SharedCapture) {
        lock.withLock {
            if running[shared.monitor.id] === shared { running[shared.monitor.id] = nil }
        }
    }
}

/// One back-end capture and the consumers it feeds.
final class SharedCapture: @unchecked Sendable {
    let monitor: Monitor
    private let gone: @Sendable (SharedCapture) -> Void
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var consumers: [CaptureConsumer] = []
    private var capture: (any ScreenCapture)?
    private var ended = false

    init(monitor: Monitor, gone: @escaping @Sendable (SharedCapture) -> Void) {
        self.monitor = monitor
        self.gone = gone
    }

    var isRunning: Bool { lock.withLock { !ended } }

    func add(fps: Int, handlers: CaptureHandlers) -> CaptureConsumer {
        let consumer = CaptureConsumer(fps: fps, handlers: handlers, owner: self)
        let rate: Int? = lock.withLock {
            let before = fastest
            consumers.append(consumer)
            return fastest != before ? fastest : nil
        }
        if let rate { lock.withLock { capture }?.setFPS(rate) }
        // A joining consumer needs a whole picture now, not at the next change.
        lock.withLock { capture }?.refresh()
        return consumer
    }

    func begin(_ start: StartCapture, fps: Int) throws {
        let handlers = CaptureHandlers(
            frame: { [weak self] frame in self?.deliver(frame) },
            ended: { [weak self] error in self?.end(error) })
        let capture = try start(monitor, fps, handlers)
        lock.withLock { self.capture = capture }
    }

    /// Highest rate among the consumers (guarded by `lock`).
    private var fastest: Int { consumers.map(\.fps).max() ?? 1 }

    func rateChanged() {
        let (capture, rate) = lock.withLock { (self.capture, fastest) }
        capture?.setFPS(rate)
    }

    func refresh() { lock.withLock { capture }?.refresh() }

    var inputRefusal: String? { lock.withLock { capture }?.inputRefusal }

    func remove(_ consumer: CaptureConsumer) {
        let last: (any ScreenCapture)? = lock.withLock {
            consumers.removeAll { $0 === consumer }
            guard consumers.isEmpty else { return nil }
            ended = true
            defer { capture = nil }
            return capture
        }
        guard let last else { return rateChanged() }
        gone(self)
        last.stop()
    }

    private func deliver(_ frame: CapturedFrame) {
        for consumer in lock.withLock({ consumers }) { consumer.deliver(frame) }
    }

    private func end(_ error: ScreenSourceError) {
        let all: [CaptureConsumer] = lock.withLock {
            ended = true
            defer { consumers = [] }
            return consumers
        }
        gone(self)
        for consumer in all { consumer.end(error) }
    }
}

/// One consumer's view of a shared capture: its own rate, its own stop.
final class CaptureConsumer: ScreenCapture, @unchecked Sendable {
    private let handlers: CaptureHandlers
    private weak var owner: SharedCapture?
    // Held while a handler runs, so `stop()` returns only when none is running; recursive because a handler
    // may stop its own consumer.
    private let lock = NSRecursiveLock()
    private var stopped = false
    private var interval: UInt64
    private var lastFrame: UInt64?
    private var owedWhole = false
    /// A refresh is asked for at the end of this consumer's interval (a skipped frame is owed).
    private var catchUpScheduled = false

    init(fps: Int, handlers: CaptureHandlers, owner: SharedCapture) {
        self.handlers = handlers
        self.owner = owner
        interval = Self.interval(fps)
        self.fps = max(1, fps)
    }

    var inputRefusal: String? { owner?.inputRefusal }

    private(set) var fps: Int

    private static func interval(_ fps: Int) -> UInt64 { 1_000_000 / UInt64(max(1, fps)) }

    func deliver(_ frame: CapturedFrame) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        // Faster frames than this consumer asked for are skipped; the damage they carried is owed to the next.
        // On a screen that then stands still no next frame would come, and the consumer would end on a picture
        // from before the last change: so the owed frame is asked for when this consumer's interval is over.
        if let lastFrame, frame.capturedAt < lastFrame + interval * 9 / 10 {
            owedWhole = true
            scheduleCatchUp(after: lastFrame + interval - min(frame.capturedAt, lastFrame + interval))
            return
        }
        lastFrame = frame.capturedAt
        var frame = frame
        if owedWhole {
            frame.damage = [PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)]
            owedWhole = false
        }
        handlers.frame(frame)
    }

    /// Asks the capture for a whole picture `micros` from now, once per skip episode (under `lock`).
    private func scheduleCatchUp(after micros: UInt64) {
        guard !catchUpScheduled else { return }
        catchUpScheduled = true
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + .microseconds(Int(micros) + 1000)) {
            [weak self] in
            guard let self else { return }
            let owner: SharedCapture? = self.lock.withLock {
                self.catchUpScheduled = false
                return self.stopped || !self.owedWhole ? nil : self.owner
            }
            owner?.refresh()
        }
    }

    func end(_ error: ScreenSourceError) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        handlers.ended(error)
    }

    func setFPS(_ fps: Int) {
        lock.withLock {
            self.fps = max(1, fps)
            interval = Self.interval(fps)
        }
        owner?.rateChanged()
    }

    func refresh() { owner?.refresh() }

    func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { owner?.remove(self) }
    }
}
