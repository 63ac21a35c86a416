import CX11
import DeckDesktop

/// Key injection on one `Display*` (held in an `XDisplay`, which opens, closes and notes a lost connection).
/// Used only on `XKeyboard`'s queue.
final class XDisplayConnection: XDisplayUser {
    let connection: XDisplay

    /// Takes `connection` for the keypad (nothing else may use it from now on) and follows its keymap.
    init(_ connection: XDisplay) {
        self.connection = connection
        // Xlib caches the keymap and refreshes it only on the XKB events a client selected: without these, a
        // layout switched after this connection opened (setxkbmap de, a Korean/English toggle) is never
        // seen, and `=` is typed on the key that now is a dead acute, which types nothing.
        let keymapEvents = UInt32(XkbNewKeyboardNotifyMask | XkbMapNotifyMask)
        XkbSelectEvents(connection.handle, UInt32(XkbUseCoreKbd), keymapEvents, keymapEvents)
    }

    /// Brings Xlib's cached keymap up to the server's: the round trip reads every keymap event sent so far
    /// (Xlib notes the change as it reads them), and the drained queue keeps them from piling up.
    func followKeymapChanges() {
        XSync(display, 0)
        var event = XEvent()
        while XPending(display) > 0 { XNextEvent(display, &event) }
    }

    /// The current layout group (a Korean or German layout may sit in group 2); one round trip.
    func currentGroup() -> Int32 {
        var state = XkbStateRec()
        XkbGetState(display, UInt32(XkbUseCoreKbd), &state)
        return Int32(state.group)
    }

    /// What the key types with no modifiers in `group`.
    func unmodifiedKeysym(of keycode: UInt8, group: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: XkbKeycodeToKeysym(display, keycode, group, 0))
    }

    /// Where `group` puts `keysym`: a key that types it alone, else one that types it with Shift.
    /// Reads Xlib's copy of the keymap (no round trip); `followKeymapChanges` keeps that copy current.
    func layoutKey(for keysym: UInt32, group: Int32) -> LayoutKey? {
        let (minimum, maximum) = keycodeRange
        var shifted: UInt8?
        for keycode in minimum...maximum {
            if XkbKeycodeToKeysym(display, keycode, group, 0) == KeySym(keysym) {
                return LayoutKey(keycode: keycode, shifted: false)
            }
            if shifted == nil, XkbKeycodeToKeysym(display, keycode, group, 1) == KeySym(keysym) { shifted = keycode }
        }
        return shifted.map { LayoutKey(keycode: $0, shifted: true) }
    }

    private var keycodeRange: (UInt8, UInt8) {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        return (UInt8(clamping: minimum), UInt8(clamping: maximum))
    }

    /// The keycodes with no keysyms at all in the server's current map (one round trip).
    func spareKeycodes() -> [UInt8] {
        let (minimum, maximum) = keycodeRange
        var perKeycode: Int32 = 0
        let total = Int32(maximum) - Int32(minimum) + 1
        guard total > 0, let map = XGetKeyboardMapping(display, minimum, total, &perKeycode) else { return [] }
        defer { XFree(map) }
        let width = Int(perKeycode)
        return (0..<Int(total)).compactMap { offset in
            (0..<width).allSatisfy { map[offset * width + $0] == 0 } ? minimum + UInt8(offset) : nil
        }
    }

    /// Puts each binding's keysym in every column of its keycode, so it types that keysym in any group and
    /// shift level. Adjacent keycodes go in one request; then one round trip, so the new mapping is in place
    /// before any key event sent after this returns.
    func bind(_ bindings: [KeyBindings.Binding]) {
        var runs: [[KeyBindings.Binding]] = []
        for binding in bindings.sorted(by: { $0.keycode < $1.keycode }) {
            if let last = runs.last?.last, last.keycode + 1 == binding.keycode {
                runs[runs.count - 1].append(binding)
            } else {
                runs.append([binding])
            }
        }
        for run in runs {
            var symbols = run.flatMap { [KeySym](repeating: KeySym($0.keysym), count: 4) }
            XChangeKeyboardMapping(display, Int32(run[0].keycode), 4, &symbols, Int32(run.count))
        }
        XSync(display, 0)
    }

    /// The keycodes of the left Shift, Control, Alt and Super keys, for holding modifiers around a tap.
    var modifierKeycodes: [KeyStroke.Modifiers: UInt8] {
        var found: [KeyStroke.Modifiers: UInt8] = [:]
        let keys: [(KeyStroke.Modifiers, Int32)] = [
            (.shift, XK_Shift_L), (.control, XK_Control_L), (.alt, XK_Alt_L), (.superKey, XK_Super_L),
        ]
        for (modifier, keysym) in keys {
            let keycode = XKeysymToKeycode(display, KeySym(keysym))
            if keycode != 0 { found[modifier] = keycode }
        }
        return found
    }

    /// Sends key presses (`down`) or releases of `keycodes`, in order, then one round trip.
    func send(_ keycodes: [UInt8], down: Bool) {
        for keycode in keycodes { XTestFakeKeyEvent(display, UInt32(keycode), down ? 1 : 0, UInt(CurrentTime)) }
        XSync(display, 0)
    }

    /// Presses and releases each tap's key, holding its modifiers, then waits for the server to have them all
    /// (one round trip): when this returns, the focused window has been sent every key, in order.
    func tap(_ taps: [KeyTap]) {
        let modifiers = modifierKeycodes
        for tap in taps {
            let held = KeyStroke.Modifiers.all.filter { tap.modifiers.contains($0) }.compactMap { modifiers[$0] }
            for keycode in held { XTestFakeKeyEvent(display, UInt32(keycode), 1, UInt(CurrentTime)) }
            XTestFakeKeyEvent(display, UInt32(tap.keycode), 1, UInt(CurrentTime))
            XTestFakeKeyEvent(display, UInt32(tap.keycode), 0, UInt(CurrentTime))
            for keycode in held.reversed() { XTestFakeKeyEvent(display, UInt32(keycode), 0, UInt(CurrentTime)) }
        }
        XSync(display, 0)
    }
}
