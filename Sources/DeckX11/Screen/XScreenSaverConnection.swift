import CX11
import CXss
import DeckDesktop

/// The screensaver's state on one `Display*` (held in an `XDisplay`, which opens, closes and notes a lost
/// connection). Used only on `X11LockProbe`'s queue.
///
/// A connection of its own rather than the screen source's: the probe asks every second while someone views,
/// and must not wait behind a grab (or make a grab wait).
final class XScreenSaverConnection: XDisplayUser {
    let connection: XDisplay
    private let root: Window
    /// The server speaks MIT-SCREEN-SAVER; without it the screensaver cannot be seen and counts as off.
    private var hasExtension = false

    /// Takes `connection` for the lock probe (nothing else may use it from now on).
    init(_ connection: XDisplay) {
        XErrorTrap.install()
        self.connection = connection
        root = XDefaultRootWindow(connection.handle)
        // `XDisplay` has its exit handler in place before this first request: a server that quits during it
        // marks the connection lost instead of ending the process.
        var event: Int32 = 0
        var error: Int32 = 0
        hasExtension = XScreenSaverQueryExtension(connection.handle, &event, &error) != 0 && !isBroken
    }

    /// Whether the server's screensaver is on now (false when the server has no MIT-SCREEN-SAVER, or went away).
    func screenSaverIsOn() -> Bool {
        guard hasExtension, !isBroken, let info = XScreenSaverAllocInfo() else { return false }
        defer { XFree(info) }
        guard XScreenSaverQueryInfo(display, root, info) != 0, !isBroken else { return false }
        return info.pointee.state == ScreenSaverOn
    }
}

@available(*, unavailable) extension XScreenSaverConnection: Sendable {}
