import CXKBCommon

/// The keymap the host's virtual keyboard on wlroots carries (as wtype does): one key per keysym it was asked
/// to type, one level each, so any character can be typed whatever the user's layout. It only grows, so keys
/// already sent keep their meaning; past `capacity` keysyms it starts over with the ones the text needs.
struct VirtualKeymap: Equatable, Sendable {
    /// The keysyms, in key order: keysyms[i] is on XKB keycode 9 + i (evdev code 1 + i).
    private(set) var keysyms: [UInt32] = []
    static let capacity = 200
    static let shiftL: UInt32 = 0xffe1
    static let controlL: UInt32 = 0xffe3
    static let altL: UInt32 = 0xffe9
    static let superL: UInt32 = 0xffeb
    /// The modifier keys, each with its XKB modifier and that modifier's bit in the standard real-modifier order
    /// (Shift 0, Control 2, Mod1 3 for Alt, Mod4 6 for Super, as xkeyboard-config maps them).
    static let modifierKeys: [(keysym: UInt32, modifier: String, bit: UInt32)] = [
        (shiftL, "Shift", 0), (controlL, "Control", 2), (altL, "Mod1", 3), (superL, "Mod4", 6),
    ]

    /// Adds what `needed` lacks; true when the keymap changed (and must be sent again before any key).
    mutating func add(_ needed: [UInt32]) -> Bool {
        let missing = needed.reduce(into: [UInt32]()) { list, keysym in
            if !keysyms.contains(keysym) && !list.contains(keysym) { list.append(keysym) }
        }
        guard !missing.isEmpty else { return false }
        if keysyms.count + missing.count > Self.capacity {
            keysyms = needed.reduce(into: []) { list, keysym in if !list.contains(keysym) { list.append(keysym) } }
        } else {
            keysyms += missing
        }
        return true
    }

    /// The XKB modifier mask of held modifier keysyms (`modifierKeys`' bits).
    static func modifierMask(_ modifiers: [UInt32]) -> UInt32 {
        modifiers.reduce(0) { mask, keysym in
            mask | (modifierKeys.first { $0.keysym == keysym }.map { 1 << $0.bit } ?? 0)
        }
    }

    /// The evdev code of the key for `keysym`, if the keymap has one.
    func evdevCode(_ keysym: UInt32) -> UInt32? {
        keysyms.firstIndex(of: keysym).map { UInt32($0) + 1 }
    }

    /// The keymap as XKB text (format v1), with the modifier keys bound to their modifiers.
    var text: String {
        let keys = keysyms.enumerated()
        let codes = keys.map { index, _ in "<K\(index + 9)> = \(index + 9);" }
        let symbols = keys.map { index, keysym in "key <K\(index + 9)> { [ \(Self.name(keysym)) ] };" }
        let modifiers = Self.modifierKeys.compactMap { keysym, modifier, _ in
            keysyms.firstIndex(of: keysym).map { "modifier_map \(modifier) { <K\($0 + 9)> };" }
        }
        return """
            xkb_keymap {
            xkb_keycodes "touchdeck" { minimum = 8; maximum = \(max(255, keysyms.count + 9)); \(codes.joined(separator: " ")) };
            xkb_types "touchdeck" { include "complete" };
            xkb_compatibility "touchdeck" { include "complete" };
            xkb_symbols "touchdeck" { \((symbols + modifiers).joined(separator: " ")) };
            };

            """
    }

    /// xkbcommon's name of a keysym (a, EuroSign, U1F44D), or its number, which XKB reads too.
    static func name(_ keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else { return "0x" + String(keysym, radix: 16) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
