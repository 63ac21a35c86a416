import CX11

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
        // Xlib's default reaction to a lost connection is exit(1), which would take the host down with
        // the display; this per-display handler returns instead and marks the connection broken.
        XSetIOErrorExitHandler(display, xDisplayLost, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { XCloseDisplay(display) }

    fileprivate func markBroken() { isBroken = true }

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

    /// A keycode with no keysyms at all in the current map, not in `taken`.
    func spareKeycode(excluding taken: Set<KeyCode>) -> KeyCode? {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        var perKeycode: Int32 = 0
        let count = maximum - minimum + 1
        guard let map = XGetKeyboardMapping(display, KeyCode(minimum), count, &perKeycode) else { return nil }
        defer { XFree(map) }
        // Searching from the top: low keycodes are real keys on every keyboard, high ones rarely are.
        for offset in stride(from: Int(count) - 1, through: 0, by: -1) {
            let keycode = KeyCode(Int(minimum) + offset)
            let symbols = (0..<Int(perKeycode)).map { map[offset * Int(perKeycode) + $0] }
            if !taken.contains(keycode), symbols.allSatisfy({ $0 == 0 }) { return keycode }
        }
        return nil
    }

    /// Puts `keysym` in every column of `keycode`, so it types that keysym in any group and shift level.
    func bind(_ keycode: KeyCode, to keysym: KeySym) {
        var symbols = [KeySym](repeating: keysym, count: 4)
        XChangeKeyboardMapping(display, Int32(keycode), 4, &symbols, 1)
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
