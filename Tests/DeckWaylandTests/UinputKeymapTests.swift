import CXKBCommon
import Foundation
import Testing

@testable import DeckWayland

/// Where keysyms sit on real layouts, compiled by xkbcommon from the system's XKB data (no compositor needed).
struct UinputKeymapTests {
    typealias Key = UinputKeymap.Key
    static let (shift, altGr) = (UInt16(42), UInt16(100))

    /// What wl_keyboard.keymap would send for a compositor configured with `layout`: xkb_keymap_get_as_string's
    /// text of the keymap it compiled.
    static func text(layout: String) throws -> String {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let keymap = try layout.withCString { layout in
            var names = xkb_rule_names(rules: nil, model: nil, layout: layout, variant: nil, options: nil)
            return try #require(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
        defer { xkb_keymap_unref(keymap) }
        let raw = try #require(xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1))
        defer { free(raw) }
        return String(cString: raw)
    }

    @Test func usHasShiftedSymbolsAndNoAccentedLetters() throws {
        let us = try #require(UinputKeymap.compile(layout: "us"))
        #expect(us.key(for: 0x61) == Key(code: 30))  // a
        #expect(us.key(for: 0x41) == Key(code: 30, modifiers: [Self.shift]))  // A
        #expect(us.key(for: 0x21) == Key(code: 2, modifiers: [Self.shift]))  // !
        #expect(us.key(for: 0x40) == Key(code: 3, modifiers: [Self.shift]))  // @
        #expect(us.key(for: 0x31) == Key(code: 2), "the main row's 1, not the keypad's")
        #expect(us.key(for: 0xffe3) == Key(code: 29))  // Control_L
        #expect(us.key(for: 0xff0d) == Key(code: 28))  // Return
        #expect(us.key(for: 0xe9) == nil)  // é
        #expect(us.key(for: 0x20ac) == nil)  // €
    }

    @Test func germanUsesAltGrOnRightAltForTheThirdLevel() throws {
        let de = try #require(UinputKeymap.compile(layout: "de"))
        #expect(de.key(for: 0x40) == Key(code: 16, modifiers: [Self.altGr]))  // @ is AltGr+Q
        #expect(de.key(for: 0x20ac) == Key(code: 18, modifiers: [Self.altGr]))  // € is AltGr+E
        #expect(de.key(for: 0x5a) == Key(code: 21, modifiers: [Self.shift]))  // Z is Shift + the Y key
        #expect(de.key(for: 0x7a) == Key(code: 21))  // z
        #expect(de.key(for: 0x79) == Key(code: 44))  // y
        #expect(de.key(for: 0xdf) == Key(code: 12))  // ß
        #expect(de.key(for: 0x7b) == Key(code: 8, modifiers: [Self.altGr]))  // { is AltGr+7
    }

    @Test func theCompositorsTextGivesTheSameLookupAsItsNames() throws {
        let fromText = try #require(UinputKeymap.compile(text: try Self.text(layout: "de")))
        #expect(fromText.key(for: 0x40) == Key(code: 16, modifiers: [Self.altGr]))
        #expect(fromText.key(for: 0x5a) == Key(code: 21, modifiers: [Self.shift]))
    }

    @Test func theSecondGroupOfATwoLayoutKeymapIsReadWhenItIsCurrent() throws {
        let both = try #require(UinputKeymap.compile(layout: "us,de"))
        #expect(both.key(for: 0x40) == Key(code: 3, modifiers: [Self.shift]), "group 1: us")
        let german = try #require(UinputKeymap.compile(text: try Self.text(layout: "us,de"), group: 1))
        #expect(german.key(for: 0x40) == Key(code: 16, modifiers: [Self.altGr]), "group 2: de")
    }

    @Test func withoutNamesTheSystemDefaultsAreUsed() throws {
        // xkbcommon's built-in default is us unless XKB_DEFAULT_LAYOUT says otherwise; either way a keymap.
        let keymap = try #require(UinputKeymap.compile())
        #expect(keymap.key(for: 0x61) != nil)
    }
}
