import DeckDesktop
import Foundation

/// A capture the test drives (`ScreenSource.fake`): `deliver` calls the frame handler on the caller's thread
/// as the back-end's thread would, and the calls the pipeline made are kept for the test to read.
public final class FakeCapture: ScreenCapture, @unchecked Sendable {
    public let monitor: Monitor
    private let handlers: CaptureHandlers
    private let lock = NSRecursiveLock()  // a handler may call stop()
    private var fpsSet: [Int]
    private var refreshes = 0
    private var stopped = false

    init(monitor: Monitor, fps: Int, handlers: CaptureHandlers) {
        self.monitor = monitor
        self.handlers = handlers
        self.fpsSet = [fps]
    }

    /// The rate it was started with, then every `setFPS`.
    public var fpsHistory: [Int] { lock.withLock { fpsSet } }
    /// How many times `refresh()` was called.
    public var refreshCount: Int { lock.withLock { refreshes } }
    /// Whether `stop()` was called.
    public var isStopped: Bool { lock.withLock { stopped } }

    /// Hands `image` to the frame handler (whole frame damaged) unless stopped; returns whether it did.
    @discardableResult
    public func deliver(_ image: ScreenImage, capturedAt: UInt64 = CapturedFrame.now()) -> Bool {
        lock.lock()
        defer { lock.unlock() }  // held through the call: stop() waits for a running handler, as a back-end's does
        guard !stopped else { return false }
        image.pixels.withUnsafeBytes { bytes in
            handlers.frame(
                CapturedFrame(
                    width: image.width, height: image.height, stride: image.stride, format: image.format,
                    pixels: bytes.baseAddress!,
                    damage: [PixelRect(x: 0, y: 0, width: image.width, height: image.height)],
                    capturedAt: capturedAt))
        }
        return true
    }

    /// Ends the capture as a back-end would when the display goes away.
    public func end(_ error: ScreenSourceError) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        handlers.ended(error)
    }

    public func setFPS(_ fps: Int) { lock.withLock { fpsSet.append(fps) } }
    public func refresh() { lock.withLock { refreshes += 1 } }
    public func stop() { lock.withLock { stopped = true } }
}

extension ScreenSource {
    /// Lists `monitors` and grabs each as `pictures` says (nil: `noSuchMonitor`), reporting every grab to
    /// `grabbed`.
    /// Captures start a `FakeCapture` handed to `started`, which the test drives.
    public static func fake(
        monitors: [Monitor], pictures: @escaping @Sendable (Monitor) -> ScreenImage?,
        grabbed: @escaping @Sendable (Monitor) -> Void = { _ in },
        started: @escaping @Sendable (FakeCapture) -> Void = { _ in }
    ) -> ScreenSource {
        ScreenSource(
            monitors: { monitors },
            grab: { monitor in
                grabbed(monitor)
                guard let picture = pictures(monitor) else { throw ScreenSourceError.noSuchMonitor }
                return picture
            },
            capture: { monitor, fps, handlers in
                guard monitors.contains(monitor) else { throw ScreenSourceError.noSuchMonitor }
                let capture = FakeCapture(monitor: monitor, fps: fps, handlers: handlers)
                started(capture)
                return capture
            })
    }
}
