import DeckDesktop
import Dispatch
import Foundation

/// The capture of a monitor made for Extend: when it stops (the one stop path of viewing, or a stream that never
/// got announced) the monitor's removal is queued on the lane (once: `MonitorRelease`, which a device that turned
/// may have taken over). The monitor lives exactly as long as its capture.
final class ExtendedCapture: ScreenCapture, Sendable {
    private let inner: any ScreenCapture
    private let release: MonitorRelease

    init(_ inner: any ScreenCapture, release: MonitorRelease) {
        self.inner = inner
        self.release = release
    }

    func setFPS(_ fps: Int) { inner.setFPS(fps) }
    func refresh() { inner.refresh() }
    var inputRefusal: String? { inner.inputRefusal }

    func stop() {
        inner.stop()
        let release = release
        MonitorLane.add { release.run() }
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
    func extended(_ virtual: VirtualMonitor, release: MonitorRelease) -> ScreenSource {
        var source = self
        let start = virtual.capture ?? capture
        source.capture = { monitor, fps, handlers in
            ExtendedCapture(try start(monitor, fps, handlers), release: release)
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
