import CX11
import DeckDesktop

/// Pointer and key input through XTest on one `Display*` (held in an `XDisplay`, which opens, closes and notes
/// a lost connection).
///
/// Its own connection, not the keypad's: the keypad rebinds spare keycodes on its connection, and input
/// during a drag should not wait behind it. Used only on `X11Input`'s queue.
final class XInputConnection: XDisplayUser {
    let connection: XDisplay

    /// Takes `connection` for pointer input (nothing else may use it from now on).
    init(_ connection: XDisplay) { self.connection = connection }

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
