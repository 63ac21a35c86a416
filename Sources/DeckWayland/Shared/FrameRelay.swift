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

/// A monitor that lives with its stream (Mutter's RecordVirtual, the portal's virtual source), made before its viewing
/// starts: the desktop session it belongs to, the stream that keeps it, where the stream's frames go, and its size.
final class MadeMonitor<Session: Sendable>: Sendable {
    let session: Session
    let stream: PipeWireStream
    let relay: FrameRelay
    let size: (width: Int, height: Int)
    private let endSession: @Sendable (Session) -> Void

    /// `endSession` ends the desktop session (the monitor goes with it).
    init(
        session: Session, stream: PipeWireStream, relay: FrameRelay, size: (width: Int, height: Int),
        endSession: @escaping @Sendable (Session) -> Void
    ) {
        (self.session, self.stream, self.relay, self.size) = (session, stream, relay, size)
        self.endSession = endSession
    }

    /// Stops the stream and ends the session: the desktop takes the monitor away.
    func stop() {
        stream.stop()
        endSession(session)
    }

    /// The viewing's capture of the running stream: frames go to `handlers` from now on, `joined` runs once they do
    /// (the desktop's input and clipboard go through the session), `left` once the capture stops.
    func capture(
        fps: Int, handlers: CaptureHandlers, inputRefusal: String? = nil, joined: () -> Void,
        left: @escaping @Sendable () -> Void
    ) throws(ScreenSourceError) -> any ScreenCapture {
        if let ended = relay.attach(handlers) { throw ended }
        joined()
        return MadeMonitorCapture(made: self, fps: fps, inputRefusal: inputRefusal, left: left)
    }
}

/// A viewing's capture of a made monitor's running stream, whose relay has the viewing's handlers attached: stopping
/// it stops the monitor's stream (the host's `remove`, queued then, waits for the monitor to go), and `left` runs once.
final class MadeMonitorCapture<Session: Sendable>: ScreenCapture, @unchecked Sendable {
    private let made: MadeMonitor<Session>
    private let left: @Sendable () -> Void
    private let stopped = LockedFlag()
    let inputRefusal: String?

    init(made: MadeMonitor<Session>, fps: Int, inputRefusal: String?, left: @escaping @Sendable () -> Void) {
        (self.made, self.left, self.inputRefusal) = (made, left, inputRefusal)
        made.stream.setFPS(fps)
        // The first picture may have come before anyone listened.
        made.stream.refresh()
    }

    deinit { stop() }

    func setFPS(_ fps: Int) { made.stream.setFPS(fps) }
    func refresh() { made.stream.refresh() }

    func stop() {
        guard stopped.set() else { return }
        made.stop()
        made.relay.detach()
        left()
    }
}
