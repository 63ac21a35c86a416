import DeckDesktop
import Dispatch
import Foundation

/// The capture of a monitor made for Extend: when it stops (the one stop path of viewing, or a stream that never
/// got announced) the monitor is taken away. The monitor lives exactly as long as its capture.
final class ExtendedCapture: ScreenCapture, @unchecked Sendable {
    private let inner: any ScreenCapture
    private let release: @Sendable () -> Void
    /// Guarded by `lock`: the monitor is taken away once.
    private var released = false
    private let lock = NSLock()

    init(_ inner: any ScreenCapture, release: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.release = release
    }

    func setFPS(_ fps: Int) { inner.setFPS(fps) }
    func refresh() { inner.refresh() }
    var inputRefusal: String? { inner.inputRefusal }

    func stop() {
        inner.stop()
        let first = lock.withLock {
            defer { released = true }
            return !released
        }
        if first { release() }
    }
}

/// Taking one made monitor away, once, unless a device that turned took it over for its next stream first
/// (`handOver`, on the actor before that stream's capture stops; the capture's stop then queues a `run` that does
/// nothing).
final class MonitorRelease: @unchecked Sendable {
    private let body: @Sendable () -> Void
    /// Guarded by `lock`: taken away, being taken away, or handed over.
    private var settled = false
    private let lock = NSLock()

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// Takes the monitor away, unless that was done or it was handed over.
    func run() {
        if settle() { body() }
    }

    /// The next stream takes the monitor; false when it is already taken away (or going).
    func handOver() -> Bool { settle() }

    var isSettled: Bool { lock.withLock { settled } }

    private func settle() -> Bool {
        lock.withLock {
            defer { settled = true }
            return !settled
        }
    }
}

/// Where the host makes and takes away Extend's monitors: one serial queue, so a monitor is gone before the next is
/// made (a desktop that can only park one re-uses it) and nothing blocks the actor.
enum MonitorLane {
    private static let queue = DispatchQueue(label: "touchdeck.virtual-monitors")

    /// Runs `body` on the lane and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            queue.async { done.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on the lane later.
    static func add(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }
}

extension ScreenSource {
    /// The source a viewing of the made monitor captures through: its own capture (or the desktop's), wrapped so
    /// that stopping it takes the monitor away on the lane.
    func extended(_ virtual: VirtualMonitor, release: @escaping @Sendable () -> Void) -> ScreenSource {
        var source = self
        let start = virtual.capture ?? capture
        source.capture = { monitor, fps, handlers in
            ExtendedCapture(try start(monitor, fps, handlers), release: { MonitorLane.add(release) })
        }
        return source
    }

    /// The source without the monitors `parked` names (made for Extend where the desktop could not remove them).
    func hiding(_ parked: @escaping @Sendable () -> Set<String>) -> ScreenSource {
        var source = self
        let monitors = self.monitors
        source.monitors = {
            let hidden = parked()
            return try await monitors().filter { !hidden.contains($0.name) }
        }
        return source
    }
}
