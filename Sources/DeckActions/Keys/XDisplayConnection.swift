import CX11
import Glibc

/// Owns one `Display*` for key injection; closed in `deinit`. Used only on `XKeyboard`'s queue.
final class XDisplayConnection {
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
        // Xlib caches the keymap and refreshes it only on the XKB events a client selected: without these, a
        // layout switched after this connection opened (setxkbmap de, a Korean/English toggle) is never
        // seen, and `=` is typed on the key that now is a dead acute, which types nothing.
        let keymapEvents = UInt32(XkbNewKeyboardNotifyMask | XkbMapNotifyMask)
        XkbSelectEvents(display, UInt32(XkbUseCoreKbd), keymapEvents, keymapEvents)
        // Xlib's default reaction to a lost connection is exit(1), which would take the host down with
        // the display; this per-display handler returns instead and marks the connection broken.
        XSetIOErrorExitHandler(display, xDisplayLost, Unmanaged.passUnretained(self).toOpaque())
    }

    // A display whose connection was lost is never called again: after the I/O error Xlib can leave the
    // display's lock held, and XCloseDisplay on it then waits forever (seen when the X server went away
    // during the tests). Its socket is closed by hand; the rest of the structure is left behind.
    deinit {
        if isBroken { close(XConnectionNumber(display)) } else { XCloseDisplay(display) }
    }

    fileprivate func markBroken() { isBroken = true }

    /// Brings Xlib's cached keymap up to the server's: the round trip reads every keymap event sent so far
    /// (Xlib notes the change as it reads them), and the drained queue keeps them from piling up.
    func followKeymapChanges() {
        XSync(display, 0)
        var event = XEvent()
        while XPending(display) > 0 { XNextEvent(display, &event) }
    }

    /// The current layout group (a Korean or German layout may sit in group 2).
    private var group: Int32 {
        var state = XkbStateRec()
        XkbGetState(display, UInt32(XkbUseCoreKbd), &state)
        return Int32(state.group)
    }

    /// What the key types with no modifiers in the current group.
    func unmodifiedKeysym(of keycode: KeyCode) -> KeySym {
        XkbKeycodeToKeysym(display, keycode, group, 0)
    }

    func keycode(for keysym: KeySym) -> KeyCode? {
        let keycode = XKeysymToKeycode(display, keysym)
        return keycode == 0 ? nil : keycode
    }

    /// The first of `count` adjacent keycodes with no keysyms at all in the current map, none in `taken`.
    func spareRun(count: Int, excluding taken: Set<KeyCode>) -> KeyCode? {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        var perKeycode: Int32 = 0
        let total = maximum - minimum + 1
        guard count > 0, let map = XGetKeyboardMapping(display, KeyCode(minimum), total, &perKeycode) else {
            return nil
        }
        defer { XFree(map) }
        func isSpare(_ offset: Int) -> Bool {
            !taken.contains(KeyCode(Int(minimum) + offset))
                && (0..<Int(perKeycode)).allSatisfy { map[offset * Int(perKeycode) + $0] == 0 }
        }
        // Searching from the top: low keycodes are real keys on every keyboard, high ones rarely are.
        var run = 0
        for offset in stride(from: Int(total) - 1, through: 0, by: -1) {
            run = isSpare(offset) ? run + 1 : 0
            if run == count { return KeyCode(Int(minimum) + offset) }
        }
        return nil
    }

    /// Puts `keysyms[i]` in every column of keycode `first + i`, so each types its keysym in any group and
    /// shift level; one request, so clients see one keymap change.
    func bind(from first: KeyCode, to keysyms: [KeySym]) {
        var symbols = keysyms.flatMap { [KeySym](repeating: $0, count: 4) }
        XChangeKeyboardMapping(display, Int32(first), 4, &symbols, Int32(keysyms.count))
        // Round trip: the new mapping is in place before the key event that relies on it.
        XSync(display, 0)
    }

    /// Presses and releases the key.
    func tap(_ keycode: KeyCode) {
        XTestFakeKeyEvent(display, UInt32(keycode), 1, UInt(CurrentTime))
        XTestFakeKeyEvent(display, UInt32(keycode), 0, UInt(CurrentTime))
        XSync(display, 0)
    }
}

/// Xlib's per-display "connection lost" exit handler; `userdata` is the unretained `XDisplayConnection`
/// that registered it (the handler can only run during its calls, while it is alive).
private func xDisplayLost(_ display: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<XDisplayConnection>.fromOpaque(userdata).takeUnretainedValue().markBroken()
}
