import DeckDesktop

/// How `InputSink` events map onto the input routes of every Wayland back-end: evdev codes and wheel axes
/// (Mutter's and the portal's RemoteDesktop calls, wlroots' virtual pointer, uinput), and the errors of the
/// RemoteDesktop calls Mutter and the portal share.
enum WaylandInput {
    /// Linux evdev codes (linux/input-event-codes.h): BTN_LEFT, BTN_RIGHT, BTN_MIDDLE.
    static func evdevCode(_ button: PointerButton) -> Int32 {
        switch button {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }

    /// NotifyPointerAxisDiscrete's axis (0 vertical, 1 horizontal) and the sign of its steps (positive: down or
    /// right, the content moving up or left).
    static func axis(_ direction: ScrollDirection) -> (axis: UInt32, sign: Int32) {
        switch direction {
        case .up: (0, -1)
        case .down: (0, 1)
        case .left: (1, -1)
        case .right: (1, 1)
        }
    }

    /// What Mutter logs for a keysym the layout lacks; raised by the host itself, since the call succeeds anyway.
    static let noKeycode = DBusError.failed(name: "", message: "No keycode found for keyval")

    /// An input-only session has no stream to place the pointer in; the session itself is fine.
    static let noStream = DBusError.failed(name: "touchdeck.NoStream", message: "no stream to move the pointer on")

    /// The sink's error for a failed call: a keysym Mutter found no key for (its message: "No keycode found for
    /// keyval") is `noKey`; anything else means the session is no use any more (`droppedSession` forgets an
    /// input-only one, the next call opens a new one) and is `noDisplay`.
    static func failure(_ error: DBusError, keysym: UInt32?, droppedSession: () -> Void) -> InputSinkError {
        if let keysym, case .failed(_, let message) = error, message.localizedCaseInsensitiveContains("no keycode") {
            return .noKey(keysym: keysym)
        }
        if error == noStream { return .noDisplay }
        droppedSession()
        return .noDisplay
    }

    /// Return and BackSpace by name; the other keypad keys are single ASCII characters, whose keysyms equal
    /// their code (as on X11).
    static func keysym(for key: KeypadKey) -> UInt32 {
        switch key {
        case .enter: 0xff0d
        case .backspace: 0xff08
        default: key.rawValue.unicodeScalars.first!.value
        }
    }

    /// A ScreenSourceError for a D-Bus failure: no bus or no Mutter → noDisplay; anything else is kept as text.
    static func screenError(_ error: DBusError) -> ScreenSourceError {
        switch error {
        case .noBus: .noDisplay
        case .failed(let name, _) where name == "org.freedesktop.DBus.Error.ServiceUnknown": .noDisplay
        case .failed(_, let message): .captureFailed("Mutter: \(message)")
        case .badReply(let text), .timedOut(let text): .captureFailed("Mutter: \(text)")
        }
    }
}
