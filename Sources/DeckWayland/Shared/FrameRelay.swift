import DeckDesktop
import Foundation

/// Where a made monitor's frames go: nowhere until a viewing takes the capture, then to its handlers (a monitor that
/// lives with its stream, Mutter's RecordVirtual or the portal's virtual source, is made before its viewing starts).
final class FrameRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var target: CaptureHandlers?
    /// How the stream ended while nobody listened.
    private var endedAlone: ScreenSourceError?

    /// The stream's handlers; `ending` runs first when the stream ends (it stops the session: the desktop keeps
    /// nothing running for us).
    func handlers(ending: @escaping @Sendable () -> Void) -> CaptureHandlers {
        CaptureHandlers(
            frame: { frame in self.lock.withLock { self.target }?.frame(frame) },
            ended: { error in
                ending()
                let target = self.lock.withLock {
                    if self.target == nil { self.endedAlone = error }
                    return self.target
                }
                target?.ended(error)
            })
    }

    /// Frames go to `handlers` from now on; or, when the stream already ended, how (nothing is attached then).
    func attach(_ handlers: CaptureHandlers) -> ScreenSourceError? {
        lock.withLock {
            if endedAlone == nil { target = handlers }
            return endedAlone
        }
    }

    /// No frame goes anywhere any more.
    func detach() { lock.withLock { target = nil } }
}

/// A viewing's capture of a made monitor's running stream, whose relay has the viewing's handlers attached: the
/// monitor lives with that stream (Mutter's RecordVirtual, the portal's virtual source), so stopping the capture
/// stops it (`stopMade`; the host's `remove`, queued then, waits for the monitor to go). `left` runs once at the stop
/// too (the desktop's input and clipboard stop going through the stream's session).
final class MadeMonitorCapture: ScreenCapture, @unchecked Sendable {
    private let stream: PipeWireStream
    private let relay: FrameRelay
    private let stopMade: @Sendable () -> Void
    private let left: @Sendable () -> Void
    private let stopped = LockedFlag()
    let inputRefusal: String?

    init(
        stream: PipeWireStream, relay: FrameRelay, fps: Int, inputRefusal: String? = nil,
        stopMade: @escaping @Sendable () -> Void, left: @escaping @Sendable () -> Void
    ) {
        (self.stream, self.relay, self.stopMade, self.left) = (stream, relay, stopMade, left)
        self.inputRefusal = inputRefusal
        stream.setFPS(fps)
        // The first picture may have come before anyone listened.
        stream.refresh()
    }

    deinit { stop() }

    func setFPS(_ fps: Int) { stream.setFPS(fps) }
    func refresh() { stream.refresh() }

    func stop() {
        guard stopped.set() else { return }
        stopMade()
        relay.detach()
        left()
    }
}
