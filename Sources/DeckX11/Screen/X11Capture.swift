import DeckDesktop
import Foundation
import Glibc

/// A continuous capture of one monitor of an X server (`ScreenCapture`): its own display connection on its own
/// thread, which sleeps in `poll` until DAMAGE reports a change on the monitor or the pointer moves over it,
/// then grabs the monitor through one reused shared-memory image (XGetImage where the server will not share),
/// draws the cursor in (XFIXES) and hands the frame over; at most `fps` frames a second.
///
/// `@unchecked Sendable`: the stored properties are immutable and `CaptureControl` is itself thread-safe; the
/// display is touched only by the capture thread.
public final class X11Capture: ScreenCapture, @unchecked Sendable {
    private let control: CaptureControl
    /// Entered before the thread starts, left when its loop has ended and the display is closed.
    private let running = DispatchGroup()

    /// Opens `display` (nil: `$DISPLAY`) and starts capturing `monitor`; the first frame (the whole monitor)
    /// follows at once. Throws `noDisplay`, `noSuchMonitor` (its rectangle is off the screen) or `captureFailed`
    /// (no DAMAGE or XFIXES extension, an unsupported pixel layout).
    public init(display: String?, monitor: Monitor, fps: Int, handlers: CaptureHandlers) throws(ScreenSourceError) {
        let connection = try XCaptureConnection(name: display, monitor: monitor)
        control = try CaptureControl(fps: fps)
        let handoff = Handoff(connection)
        let control = control
        let running = running
        running.enter()
        let thread = Thread {
            control.thread.store(pthread_self(), ordering: .releasing)
            // Named from inside: Foundation passes a name to the kernel only for the thread it is set on.
            Thread.current.name = Self.threadName
            Self.runLoop(handoff, control, handlers, fps)
            running.leave()
        }
        thread.start()
    }

    deinit { stop() }

    /// The capture thread's name (what `/proc/self/task/*/comm` shows: 15 characters at most).
    static let threadName = "deck-capture"

    /// The loop in a scope of its own, so the connection (and with it the display) is closed when it returns.
    private static func runLoop(_ handoff: Handoff, _ control: CaptureControl, _ handlers: CaptureHandlers, _ fps: Int)
    {
        guard let connection = handoff.take() else { return }
        CaptureLoop(connection: connection, control: control, handlers: handlers, fps: fps).run()
    }

    public func setFPS(_ fps: Int) { control.ask { $0.fps = fps } }

    public func refresh() { control.ask { $0.refresh = true } }

    /// Asks the thread to end and waits until it has (display closed, no handler running). From a handler,
    /// on the capture thread itself, it only asks: the loop ends when the handler returns.
    public func stop() {
        control.ask { $0.stop = true }
        guard !control.isCaptureThread else { return }
        running.wait()
    }
}

/// Carries the connection from the starting thread to the capture thread.
///
/// `@unchecked Sendable`: the starter puts the connection in and never touches it again; the capture thread
/// takes it out once, and from then on it is that thread's alone.
private final class Handoff: @unchecked Sendable {
    private var connection: XCaptureConnection?

    init(_ connection: XCaptureConnection) { self.connection = connection }

    func take() -> XCaptureConnection? {
        defer { connection = nil }
        return connection
    }
}
