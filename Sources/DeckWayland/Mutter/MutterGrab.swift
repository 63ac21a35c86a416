import DeckDesktop
import Foundation

extension MutterDesktop {
    /// One picture of `monitor`: the first frame of a short look-only capture (a ScreenCast session alone), copied
    /// out (Mutter has no one-shot screenshot call without GNOME Shell). Blocks a global-queue thread for the
    /// second or so the stream takes to start.
    func grab(_ monitor: Monitor) async throws -> ScreenImage {
        let capture: StartCapture = { monitor, fps, handlers in
            let bus = try self.openBusOnQueue()
            return try MutterCapture(
                desktop: self, bus: bus, monitor: monitor, fps: fps, handlers: handlers, input: false)
        }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { () throws(ScreenSourceError) in try grabFirstFrame(monitor, capture, seconds: 10) })
            }
        }
    }
}

/// The first frame of a capture started for it, copied out; the capture is stopped before this returns. Blocks.
func grabFirstFrame(_ monitor: Monitor, _ start: StartCapture, seconds: Double) throws(ScreenSourceError)
    -> ScreenImage
{
    let first = FirstFrame()
    let capture: any ScreenCapture
    do {
        capture = try start(monitor, 1, CaptureHandlers(frame: first.keep, ended: first.fail))
    } catch let error as ScreenSourceError {
        throw error
    } catch {
        throw .captureFailed("\(error)")
    }
    defer { capture.stop() }
    guard first.arrived.wait(timeout: .now() + seconds) == .success else {
        throw .captureFailed("no frame in \(Int(seconds)) s")
    }
    return try first.result.get()
}

/// The first frame of a capture, copied when it arrives on the capture's thread.
private final class FirstFrame: @unchecked Sendable {
    let arrived = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<ScreenImage, ScreenSourceError>?

    var result: Result<ScreenImage, ScreenSourceError> {
        lock.withLock { outcome ?? .failure(.captureFailed("no frame")) }
    }

    var keep: @Sendable (CapturedFrame) -> Void {
        { frame in
            let bytes = frame.stride * (frame.height - 1) + frame.width * 4
            let image = ScreenImage(
                width: frame.width, height: frame.height, stride: frame.stride, format: frame.format,
                pixels: [UInt8](UnsafeRawBufferPointer(start: frame.pixels, count: bytes)))
            self.settle(.success(image))
        }
    }

    var fail: @Sendable (ScreenSourceError) -> Void { { self.settle(.failure($0)) } }

    private func settle(_ value: Result<ScreenImage, ScreenSourceError>) {
        let first = lock.withLock { () -> Bool in
            guard outcome == nil else { return false }
            outcome = value
            return true
        }
        if first { arrived.signal() }
    }
}
