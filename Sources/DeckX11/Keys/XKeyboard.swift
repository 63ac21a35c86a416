import CX11
import DeckDesktop
import DeckKit
import Dispatch
import Foundation

/// Types keysyms into an X display through XTest, whatever layout or input method is active: the keypad's
/// keys, text (characters arrive as characters: Hangul, accents, symbols, emoji) and the special keys.
///
/// Keysyms the layout does not reach get spare keycodes (see `KeyBindings`), bound in batches and kept.
/// Before every press the keymap this connection holds is brought up to the server's: Xlib reads keymap
/// events only while it reads the connection, and a press planned on a stale map (the layout switched since)
/// lands on the wrong key — under `setxkbmap de` the US `=` key is a dead acute and types nothing.
///
/// `@unchecked Sendable`: the display and the bindings are touched only on `queue` (Xlib is not thread-safe
/// without XInitThreads, and a serial queue is simpler than making it so).
final class XKeyboard: @unchecked Sendable {
    private let displayName: String?
    private let queue = DispatchQueue(label: "touchdeck.keyboard")
    private var connection: XDisplayConnection?
    private var bindings = KeyBindings()
    /// How long a keymap change waits after the last tap: a client still behind on those keys would read them
    /// with a rebound keysym, or miss the change while it fetches the previous one.
    private let settle: TimeInterval
    private var lastTap = Date.distantPast
    /// The keycodes each held chord pressed, in the order they went down (`hold`).
    private var held: [SpecialKey: [UInt8]] = [:]

    init(displayName: String?, settle: TimeInterval = 0.05) {
        self.displayName = displayName
        self.settle = settle
    }

    /// Types one keypad key.
    func type(_ key: KeypadKey) async -> ActionResult {
        await onQueue { connection in
            self.bindTogether(Self.keypadKeysyms, on: connection)
            return self.typeNow([KeyStroke(keysym: Self.keysym(for: key))], on: connection)
        }
    }

    /// Types `text` as characters. Everything the text needs is bound before its first key, in one round of
    /// keymap changes while the spares suffice: a client still fetching the keymap after one change can miss
    /// a change that arrives meanwhile (Xlib clears its note of pending changes when its fetch returns).
    func type(text: String) async -> ActionResult {
        await onQueue { connection in self.typeNow(KeyStroke.strokes(typing: text), on: connection) }
    }

    /// Presses one key with its modifiers; a modifier this keyboard has no key for fails the press by name.
    func press(_ chord: SpecialKey) async -> ActionResult {
        await onQueue { connection in
            let stroke = Self.stroke(for: chord)
            let present = connection.modifierKeycodes
            if let missing = KeyStroke.Modifiers.all.first(where: {
                stroke.modifiers.contains($0) && present[$0] == nil
            }) {
                return .failed("this keyboard has no \(Self.name(of: missing)) key")
            }
            return self.typeNow([stroke], on: connection)
        }
    }

    /// Holds a chord down (its modifiers, then its key, pressed and not released) or releases what holding it
    /// pressed, in reverse. The key's keycode is planned as a tap's (a spare one bound when the layout lacks it).
    /// A chord held already is not pressed again; releasing one not held does nothing.
    func hold(_ chord: SpecialKey, down: Bool) async -> ActionResult {
        await onQueue { connection in
            guard down else {
                if let keycodes = self.held.removeValue(forKey: chord) {
                    connection.send(keycodes.reversed(), down: false)
                }
                return .ok
            }
            guard self.held[chord] == nil else { return .ok }
            let stroke = Self.stroke(for: chord)
            let present = connection.modifierKeycodes
            if let missing = KeyStroke.Modifiers.all.first(where: {
                stroke.modifiers.contains($0) && present[$0] == nil
            }) {
                return .failed("this keyboard has no \(Self.name(of: missing)) key")
            }
            let group = connection.currentGroup()
            self.forgetLostBindings(on: connection, group: group)
            guard
                let steps = self.bindings.plan(
                    [stroke], layout: { connection.layoutKey(for: $0, group: group) },
                    spares: connection.spareKeycodes()),
                let tap = steps.last?.taps.last
            else { return .failed("no free keycode for the key") }
            for step in steps { self.run(KeyBindings.Step(bind: step.bind), on: connection) }
            let keycodes =
                KeyStroke.Modifiers.all.filter { tap.modifiers.contains($0) }.compactMap { present[$0] } + [tap.keycode]
            connection.send(keycodes, down: true)
            self.held[chord] = keycodes
            self.lastTap = Date()
            return .ok
        }
    }

    static func name(of modifier: KeyStroke.Modifiers) -> String {
        switch modifier {
        case .control: "Ctrl"
        case .alt: "Alt"
        case .superKey: "Super"
        default: "Shift"
        }
    }

    /// Plain keysyms (not `XK_KP_*`): the digit keysyms on keypad keys sit behind NumLock, and plain
    /// ones are what every app expects; whichever is not reachable gets a spare keycode.
    static func keysym(for key: KeypadKey) -> UInt32 {
        switch key {
        case .enter: UInt32(XK_Return)
        case .backspace: UInt32(XK_BackSpace)
        // The other keys' raw values are single ASCII characters, and Latin-1 keysyms equal their code.
        default: key.rawValue.unicodeScalars.first!.value
        }
    }

    /// Every keysym the keypad types: bound together, so the keymap changes at most once per layout.
    static let keypadKeysyms = KeypadKey.allCases.map(keysym(for:))

    /// The keysym and modifiers of a chord: its key's own (select-all is Ctrl+A) and those it asks for.
    static func stroke(for chord: SpecialKey) -> KeyStroke {
        var stroke = KeyStroke(keysym: chord.keysym)
        for modifier in chord.heldModifiers { stroke.modifiers.insert(Self.modifier(modifier)) }
        return stroke
    }

    static func modifier(_ modifier: KeyChord.Modifier) -> KeyStroke.Modifiers {
        switch modifier {
        case .ctrl: .control
        case .alt: .alt
        case .shift: .shift
        case .superKey: .superKey
        }
    }

    /// Runs `work` on the queue with an open display that has XTest and a current keymap.
    private func onQueue(_ work: @escaping @Sendable (XDisplayConnection) -> ActionResult) async -> ActionResult {
        await withCheckedContinuation { continuation in
            queue.async {
                if self.connection?.isBroken == true {
                    self.connection = nil
                    self.bindings.reset()
                }
                if self.connection == nil {
                    self.connection = XDisplay(name: self.displayName).map(XDisplayConnection.init)
                }
                guard let connection = self.connection else {
                    return continuation.resume(returning: .failed("no display"))
                }
                guard connection.hasXTest else {
                    return continuation.resume(returning: .failed("the display has no XTest extension"))
                }
                connection.followKeymapChanges()
                let result = work(connection)
                continuation.resume(returning: connection.isBroken ? .failed("no display") : result)
            }
        }
    }

    /// Binds the `keysyms` the layout lacks in one round of keymap changes, tapping nothing.
    private func bindTogether(_ keysyms: [UInt32], on connection: XDisplayConnection) {
        let group = connection.currentGroup()
        forgetLostBindings(on: connection, group: group)
        let step = bindings.planBindings(
            keysyms, layout: { connection.layoutKey(for: $0, group: group) }, spares: connection.spareKeycodes())
        run(step, on: connection)
    }

    private func typeNow(_ strokes: [KeyStroke], on connection: XDisplayConnection) -> ActionResult {
        let group = connection.currentGroup()
        forgetLostBindings(on: connection, group: group)
        var found: [UInt32: LayoutKey?] = [:]
        let layout = { (keysym: UInt32) -> LayoutKey? in
            if let known = found[keysym] { return known }
            let key = connection.layoutKey(for: keysym, group: group)
            found[keysym] = key
            return key
        }
        guard let steps = bindings.plan(strokes, layout: layout, spares: connection.spareKeycodes()) else {
            return .failed("no free keycode for the key")
        }
        for step in steps { run(step, on: connection) }
        return .ok
    }

    private func run(_ step: KeyBindings.Step, on connection: XDisplayConnection) {
        if !step.bind.isEmpty {
            let wait = settle - Date().timeIntervalSince(lastTap)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            connection.bind(step.bind)
        }
        guard !step.taps.isEmpty else { return }
        // Synced every few keys, so a long text never piles up unsent in Xlib's buffer.
        for start in stride(from: 0, to: step.taps.count, by: TextInput.maxChunkUTF16) {
            connection.tap(Array(step.taps[start..<min(start + TextInput.maxChunkUTF16, step.taps.count)]))
        }
        lastTap = Date()
    }

    /// Drops bindings a new layout (or anyone's remapping) has replaced since they were made.
    private func forgetLostBindings(on connection: XDisplayConnection, group: Int32) {
        bindings.keepOnly { connection.unmodifiedKeysym(of: $0.keycode, group: group) == $0.keysym }
    }
}
