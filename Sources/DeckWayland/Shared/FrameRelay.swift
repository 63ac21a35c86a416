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
