import CXKBCommon
import DeckDesktop
import DeckKit
import Foundation

/// One key a Wayland back-end sends: the keysym to produce and the modifier keysyms held around it, plus the
/// character it types (for a failure that names it).
struct WaylandStroke: Equatable, Sendable {
    var keysym: UInt32
    var modifiers: [UInt32] = []
    /// The character typed, for text; nil for a special key.
    var character: Unicode.Scalar?
}

/// Text and the keyboard row's keys as keysyms, the way compositors look them up (DESIGN.md#viewing).
enum WaylandStrokes {
    static let shiftL: UInt32 = 0xffe1
    static let controlL: UInt32 = 0xffe3

    /// One stroke per Unicode scalar of `text` (a grapheme such as e + ◌́ goes scalar by scalar). The keysym is
    /// xkbcommon's for the character: the legacy one where there is one (EuroSign, not U+20AC), since a layout's
    /// keymap lists those and compositors look keysyms up there; else 0x01000000 + code point. Control characters
    /// are skipped (the cleaned text has none left). No modifiers: the compositor picks the level (Shift for A).
    static func text(_ text: String) -> [WaylandStroke] {
        text.unicodeScalars.compactMap { scalar in
            guard !(0..<0x20).contains(scalar.value), !(0x7f..<0xa0).contains(scalar.value) else { return nil }
            return WaylandStroke(keysym: xkb_utf32_to_keysym(scalar.value), character: scalar)
        }
    }

    /// The keysym and held modifiers of a chord (select-all and copy are Ctrl+A and Ctrl+C).
    static func special(_ chord: SpecialKey) -> WaylandStroke {
        var keysym = chord.keysym
        // A character's key as the text path finds it (EuroSign, not U+20AC: the layout's keymap lists those).
        if case .character(let scalar) = chord.key { keysym = xkb_utf32_to_keysym(scalar.value) }
        return WaylandStroke(keysym: keysym, modifiers: chord.heldModifiers.map(modifierKeysym))
    }

    /// The left key of each modifier.
    static func modifierKeysym(_ modifier: KeyChord.Modifier) -> UInt32 {
        switch modifier {
        case .ctrl: controlL
        case .alt: 0xffe9  // Alt_L
        case .shift: shiftL
        case .superKey: 0xffeb  // Super_L
        }
    }

    /// Text and the keyboard row's keys, typed by a back-end's `type`. A Wayland back-end taps whole strokes: it
    /// cannot hold a chord down (hold-while-pressed hotkeys are refused with the reason, naming Wayland).
    static func typing(_ type: @escaping @Sendable ([WaylandStroke]) async -> ActionResult) -> TypingSink {
        var sink = TypingSink(
            typeText: { typed in await type(text(typed)) },
            pressKey: { key in await type([special(key)]) })
        sink.holdKey = { _, _ in .failed(TypingSink.cannotHold + " (on Wayland the host can only tap a chord)") }
        return sink
    }

    /// Keypad keys as their keysyms (`WaylandInput.keysym(for:)`), typed by a back-end's `type`.
    static func keypad(_ type: @escaping @Sendable ([WaylandStroke]) async -> ActionResult) -> KeyInjector {
        KeyInjector { key in await type([WaylandStroke(keysym: WaylandInput.keysym(for: key))]) }
    }

    /// Why `stroke` cannot be typed: names the character (or the key), so the device can tell its user.
    static func cannotType(_ stroke: WaylandStroke) -> String {
        if let character = stroke.character {
            let code = String(format: "U+%04X", character.value)
            return "cannot type “\(Character(character))” (\(code)): no key of this keyboard layout types it"
        }
        return "no key of this keyboard layout types \(keysymName(stroke.keysym))"
    }

    /// xkbcommon's name of a keysym (Escape, Tab…), or its number.
    static func keysymName(_ keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else {
            return "keysym 0x" + String(keysym, radix: 16)
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
