import DeckDesktop

/// One key press the desktop should see: the keysym it must produce and the modifiers held around it.
///
/// Keysyms and keycodes are plain integers here, so the planning code needs no X headers.
struct KeyStroke: Hashable, Sendable {
    /// Modifiers held while the key is pressed.
    struct Modifiers: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let shift = Modifiers(rawValue: 1)
        static let control = Modifiers(rawValue: 2)
        static let alt = Modifiers(rawValue: 4)
        static let superKey = Modifiers(rawValue: 8)
        /// In the order they go down.
        static let all: [Modifiers] = [.control, .alt, .superKey, .shift]
    }

    var keysym: UInt32
    var modifiers: Modifiers = []

    /// The keysyms that type `text` as characters: one per Unicode scalar (a grapheme such as 👍🏽 or e + ◌́ is
    /// typed scalar by scalar and the receiving app joins them again). Latin-1 has its own keysyms, equal to
    /// the code point; everything else uses the Unicode keysyms (0x01000000 + code point), which Xlib and
    /// every toolkit turn back into the character. Control characters cannot be typed as characters and are
    /// skipped (the cleaned text has no line breaks or tabs left).
    static func strokes(typing text: String) -> [KeyStroke] {
        text.unicodeScalars.compactMap { scalar in
            let value = scalar.value
            switch value {
            case 0x20...0x7E, 0xA0...0xFF: return KeyStroke(keysym: value)
            case 0..<0x20, 0x7F..<0xA0: return nil
            default: return KeyStroke(keysym: 0x0100_0000 | value)
            }
        }
    }
}

/// How one stroke is pressed: the keycode and the modifiers to hold.
struct KeyTap: Hashable, Sendable {
    var keycode: UInt8
    var modifiers: KeyStroke.Modifiers = []
}

/// Where the current layout puts a keysym: its keycode, and whether it needs Shift (level 2 of the group).
struct LayoutKey: Hashable, Sendable {
    var keycode: UInt8
    var shifted: Bool
}
