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

    /// Every keysym the keypad types: bound together, so the keymap changes at most once per layout.
    static let keypadKeysyms = KeypadKey.allCases.map(keysym(for:))

    private func typeNow(_ keysym: KeySym) -> ActionResult {
        if connection?.isBroken == true {
            connection = nil
            bindings = [:]
        }
        if connection == nil { connection = XDisplayConnection(name: displayName) }
        guard let connection else { return .failed("no display") }
        guard connection.hasXTest else { return .failed("the display has no XTest extension") }
        connection.followKeymapChanges()
        bindMissing(Self.keypadKeysyms, on: connection)
        guard let keycode = reachableKeycode(for: keysym, on: connection) else {
            return .failed("no free keycode for the key")
        }
        connection.tap(keycode)
        return connection.isBroken ? .failed("no display") : .ok
    }

    /// The keycode that types `keysym` with no modifiers now: a binding of ours the layout has not wiped, or
    /// the layout's own key.
    private func reachableKeycode(for keysym: KeySym, on connection: XDisplayConnection) -> KeyCode? {
        if let bound = bindings[keysym], connection.unmodifiedKeysym(of: bound) == keysym { return bound }
        if let direct = connection.keycode(for: keysym), connection.unmodifiedKeysym(of: direct) == keysym {
            return direct
        }
        return nil
    }

    /// Binds every keysym of `keysyms` the layout does not reach to spare keycodes, in one keymap change
    /// when the spares lie together. Binding one at a time, right before each press, lost keys: an Xlib
    /// client still fetching the keymap after one change can miss the next one (its refresh clears the note
    /// of changes that arrived meanwhile), and then types nothing for the new key.
    private func bindMissing(_ keysyms: [KeySym], on connection: XDisplayConnection) {
        let missing = keysyms.filter { reachableKeycode(for: $0, on: connection) == nil }
        guard !missing.isEmpty else { return }
        for keysym in missing { bindings[keysym] = nil }
        let taken = Set(bindings.values)
        if let first = connection.spareRun(count: missing.count, excluding: taken) {
            connection.bind(from: first, to: missing)
            for (offset, keysym) in missing.enumerated() { bindings[keysym] = first + KeyCode(offset) }
            return
        }
        for keysym in missing {
            guard let spare = connection.spareRun(count: 1, excluding: Set(bindings.values)) else { return }
            connection.bind(from: spare, to: [keysym])
            bindings[keysym] = spare
        }
    }
}
