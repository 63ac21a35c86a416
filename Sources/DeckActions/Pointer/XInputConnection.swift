import CX11
import Glibc

/// Owns one `Display*` for pointer and key input through XTest; closed in `deinit`.
///
/// Its own connection, not the keypad's: the keypad rebinds spare keycodes on its connection, and input
/// during a drag should not wait behind it. Used only on `X11Input`'s queue.
final class XInputConnection {
    private let display: OpaquePointer
    let hasXTest: Bool
    /// Set when Xlib reports the connection lost (the server quit); the owner then opens a new one.
    private(set) var isBroken = false

    /// Opens `name` (nil: `$DISPLAY`); nil when there is no display to open.
    init?(name: String?) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        hasXTest = XTestQueryExtension(display, &event, &error, &major, &minor) != 0
        // Xlib's default reaction to a lost connection is exit(1), which would take the host down with the
        // display. Two handlers stand in the way: the process-wide I/O error handler (libX11's default one
        // exits before any per-display handler runs), then this display's exit handler, which returns and
        // marks the connection broken.
        _ = Self.returningIOErrorHandler
        XSetIOErrorExitHandler(display, xInputDisplayLost, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Installed once: replaces libX11's default I/O error handler (print, then exit) with one that returns,
    /// so each display's own exit handler decides. Displays without one still end in libX11's default exit
    /// handler (exit(1)), as before.
    private static let returningIOErrorHandler: Void = {
        _ = XSetIOErrorHandler { _ in 0 }
    }()

    // A display whose connection was lost is never called again: after the I/O error Xlib can leave the
    // display's lock held, and XCloseDisplay on it then waits forever (seen when the X server went away
    // during the tests). Its socket is closed by hand; the rest of the structure is left behind.
    deinit {
        if isBroken {
            close(XConnectionNumber(display))
            return
        }
        // Closing flushes; when the server is already gone that is the first I/O error, and the handler must
        // not reach for `self`, which is being torn down (taking a reference to it here traps).
        XSetIOErrorExitHandler(display, xInputDisplayLost, nil)
        XCloseDisplay(display)
    }

    fileprivate func markBroken() { isBroken = true }

    /// Moves the pointer to (`x`, `y`) of the root window: every XRandR monitor lies inside the default
    /// screen's root, at its own offset.
    func move(x: Int, y: Int) {
        XTestFakeMotionEvent(display, XDefaultScreen(display), Int32(clamping: x), Int32(clamping: y), 0)
    }

    /// Presses or releases core button `number` (1 left, 2 middle, 3 right, 4–7 wheel).
    func button(_ number: UInt32, pressed: Bool) {
        XTestFakeButtonEvent(display, number, pressed ? 1 : 0, 0)
    }

    /// The keycode whose base level types `keysym` now, if any.
    func baseKeycode(for keysym: UInt32) -> KeyCode? {
        let keycode = XKeysymToKeycode(display, KeySym(keysym))
        guard keycode != 0, XkbKeycodeToKeysym(display, keycode, 0, 0) == KeySym(keysym) else { return nil }
        return keycode
    }

    /// Presses and releases the key.
    func tap(_ keycode: KeyCode) {
        XTestFakeKeyEvent(display, UInt32(keycode), 1, 0)
        XTestFakeKeyEvent(display, UInt32(keycode), 0, 0)
    }

    /// Waits until the server has handled every request sent so far, so the events are on their way to
    /// clients before the call returns (and a lost connection shows up now, not at the next call).
    func sync() {
        XSync(display, 0)
    }
}

@available(*, unavailable) extension XInputConnection: Sendable {}

/// Xlib's per-display "connection lost" exit handler; `userdata` is the unretained `XInputConnection` that
/// registered it (the handler can only run during its calls, while it is alive).
private func xInputDisplayLost(_ display: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<XInputConnection>.fromOpaque(userdata).takeUnretainedValue().markBroken()
}
