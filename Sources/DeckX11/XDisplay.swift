import CX11
import Glibc

/// One connection to an X server: the `Display*` the host's X classes (keypad, pointer, screen source, capture,
/// lock probe, doctor) talk through. Opened in `init`, closed in `deinit`, and the one place that knows what
/// to do when the server goes away: Xlib's exit(1) is kept off, the loss is noted, and a lost display is never
/// called again.
///
/// Thread-confined, like every Xlib connection: its owner uses it from one queue or thread only (it may be made
/// on one thread and handed to another, which uses it from then on; Xlib connections are never shared between
/// threads).
package final class XDisplay {
    /// The `Display*`, for the owner's Xlib calls; valid as long as this object lives.
    package let handle: OpaquePointer
    /// Set from Xlib's exit handler when the connection is lost; a box of its own rather than `self`, so the
    /// handler can be in place from the moment the display is opened, and so it never reaches for an object
    /// being torn down: closing flushes, and when the server is already gone that is the first I/O error,
    /// which runs the handler from inside `deinit` (taking a reference to `self` there traps).
    private let loss = DisplayLoss()

    /// Opens `name` (nil: `$DISPLAY`); nil when there is no display to open.
    package init?(name: String?) {
        _ = Self.returningIOErrorHandler
        guard let handle = XOpenDisplay(name) else { return nil }
        self.handle = handle
        // Xlib's default reaction to a lost connection is exit(1), which would take the host down with the
        // display. Two handlers stand in the way: the process-wide I/O error handler (libX11's default one
        // exits before any per-display handler runs), then this display's exit handler, which returns and
        // marks the connection lost. Set before the first request: a server that quits during it must mark
        // this connection lost, not reach Xlib's default exit handler, which ends the process.
        // The handler gets the box unretained: it lives as long as the display, which is never called after
        // the box is freed.
        XSetIOErrorExitHandler(handle, xDisplayLost, Unmanaged.passUnretained(loss).toOpaque())
    }

    /// Installed once: replaces libX11's default I/O error handler (print, then exit) with one that returns,
    /// so each display's own exit handler decides. libX11 1.8's default calls exit(1) itself, before the
    /// per-display exit handler is ever reached. Displays opened without an `XDisplay` (the tests' helpers)
    /// still end in libX11's default exit handler (exit(1)), as before.
    private static let returningIOErrorHandler: Void = {
        _ = XSetIOErrorHandler { _ in 0 }
    }()

    // A display whose connection was lost is never called again: after the I/O error Xlib can leave the
    // display's lock held, and XCloseDisplay on it then waits forever (seen when the X server went away
    // during the tests). Its socket is closed by hand; the rest of the structure is left behind.
    deinit {
        XErrorTrap.clear(handle)
        if loss.happened { close(XConnectionNumber(handle)) } else { XCloseDisplay(handle) }
    }

    /// Whether Xlib reported the connection lost (the server quit); nothing else may be called then, and the
    /// owner opens a new one.
    package var isLost: Bool { loss.happened }

    /// Whether the server speaks XTest: asked on first use (one round trip), then remembered.
    package private(set) lazy var hasXTest: Bool = {
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        return XTestQueryExtension(handle, &event, &error, &major, &minor) != 0
    }()
}

@available(*, unavailable) extension XDisplay: Sendable {}

/// Whether a display's connection was lost; written by Xlib's exit handler on the thread using the display.
private final class DisplayLoss {
    var happened = false
}

/// Xlib's per-display "connection lost" exit handler; `userdata` is the unretained `DisplayLoss` of the
/// `XDisplay` that registered it (alive as long as the display, which is never called after it is freed).
private func xDisplayLost(_ display: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<DisplayLoss>.fromOpaque(userdata).takeUnretainedValue().happened = true
}
