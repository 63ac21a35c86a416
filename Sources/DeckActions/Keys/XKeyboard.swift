import CX11
import Dispatch

/// Types keysyms into an X display through XTest, whatever layout or input method is active.
///
/// `@unchecked Sendable`: the display and the bindings are touched only on `queue` (Xlib is not
/// thread-safe without XInitThreads, and a serial queue is simpler than making it so).
final class XKeyboard: @unchecked Sendable {
    private let displayName: String?
    private let queue = DispatchQueue(label: "touchdeck.keypad")
    private var connection: XDisplayConnection?
    /// Spare keycodes bound to keysyms the layout does not reach without modifiers; kept bound, so
    /// repeated presses do not remap the keyboard (and notify every client) each time.
    private var bindings: [KeySym: KeyCode] = [:]

    init(displayName: String?) {
        self.displayName = displayName
    }

    func type(_ key: KeypadKey) async -> ActionResult {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.typeNow(Self.keysym(for: key))) }
        }
    }

    /// Plain keysyms (not `XK_KP_*`): the digit keysyms on keypad keys sit behind NumLock, and plain
    /// ones are what every app expects; whichever is not reachable gets a spare keycode.
    static func keysym(for key: KeypadKey) -> KeySym {
        switch key {
        case .enter: KeySym(XK_Return)
        case .backspace: KeySym(XK_BackSpace)
        // The other keys' raw values are single ASCII characters, and Latin-1 keysyms equal their code.
        default: KeySym(key.rawValue.unicodeScalars.first!.value)
        }
    }

    private func typeNow(_ keysym: KeySym) -> ActionResult {
        if connection?.isBroken == true {
            connection = nil
            bindings = [:]
        }
        if connection == nil { connection = XDisplayConnection(name: displayName) }
        guard let connection else { return .failed("no display") }
        guard connection.hasXTest else { return .failed("the display has no XTest extension") }
        guard let keycode = keycode(for: keysym, on: connection) else { return .failed("no free keycode for the key") }
        connection.tap(keycode)
        return connection.isBroken ? .failed("no display") : .ok
    }

    private func keycode(for keysym: KeySym, on connection: XDisplayConnection) -> KeyCode? {
        if let bound = bindings[keysym], connection.unmodifiedKeysym(of: bound) == keysym { return bound }
        if let direct = connection.keycode(for: keysym), connection.unmodifiedKeysym(of: direct) == keysym {
            return direct
        }
        let taken = Set(bindings.values)
        guard let spare = connection.spareKeycode(excluding: taken) else { return nil }
        connection.bind(spare, to: keysym)
        bindings[keysym] = spare
        return spare
    }
}
