import CX11
import CXss
import Glibc

/// Owns one `Display*` for the lock probe; closed in `deinit`. Used only on `X11LockProbe`'s queue.
///
/// A connection of its own rather than the screen source's: the probe asks every second while someone views,
/// and must not wait behind a grab (or make a grab wait).
final class XScreenSaverConnection {
    private let display: OpaquePointer
    private let root: Window
    /// The server speaks MIT-SCREEN-SAVER; without it the screensaver cannot be seen and counts as off.
    private var hasExtension = false
    /// Set when Xlib reports the connection lost (the server quit); the owner then opens a new one.
    private(set) var isBroken = false

    /// Opens `name` (nil: `$DISPLAY`); nil when there is no display to open.
    init?(name: String?) {
        XErrorTrap.install()
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        root = XDefaultRootWindow(display)
        // Before the first request: a server that quits during it must mark this connection broken, not
        // reach Xlib's default exit handler, which ends the process (see XErrorTrap).
        XSetIOErrorExitHandler(display, xLockDisplayLost, Unmanaged.passUnretained(self).toOpaque())
        var event: Int32 = 0
        var error: Int32 = 0
        hasExtension = XScreenSaverQueryExtension(display, &event, &error) != 0 && !isBroken
    }

    // As in XScreenConnection: a lost display is never called again (XCloseDisplay on it can wait forever on
    // the lock Xlib left held); its socket is closed by hand.
    deinit {
        if isBroken { close(XConnectionNumber(display)) } else { XCloseDisplay(display) }
    }

    fileprivate func markBroken() { isBroken = true }

    /// Whether the server's screensaver is on now (false when the server has no MIT-SCREEN-SAVER, or went away).
    func screenSaverIsOn() -> Bool {
        guard hasExtension, !isBroken, let info = XScreenSaverAllocInfo() else { return false }
        defer { XFree(info) }
        guard XScreenSaverQueryInfo(display, root, info) != 0, !isBroken else { return false }
        return info.pointee.state == ScreenSaverOn
    }
}

/// Xlib's per-display "connection lost" exit handler; `userdata` is the unretained `XScreenSaverConnection`
/// that registered it (the handler can only run during its calls, while it is alive).
private func xLockDisplayLost(_ display: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<XScreenSaverConnection>.fromOpaque(userdata).takeUnretainedValue().markBroken()
}

@available(*, unavailable) extension XScreenSaverConnection: Sendable {}
