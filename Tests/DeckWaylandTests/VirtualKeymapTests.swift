import CXKBCommon
import DeckKit
import Testing

@testable import DeckWayland

/// The virtual keyboard's keymap on wlroots, compiled by xkbcommon as the compositor would (no compositor needed).
struct VirtualKeymapTests {
    /// The keysym xkbcommon finds on an evdev code of the compiled text.
    static func compiled(_ keymap: VirtualKeymap) -> [UInt32: UInt32]? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        guard
            let compiled = xkb_keymap_new_from_string(
                context, keymap.text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return nil }
        defer { xkb_keymap_unref(compiled) }
        var found: [UInt32: UInt32] = [:]
        for keysym in keymap.keysyms {
            guard let code = keymap.evdevCode(keysym) else { continue }
            var syms: UnsafePointer<xkb_keysym_t>?
            if xkb_keymap_key_get_syms_by_level(compiled, code + 8, 0, 0, &syms) == 1 { found[code] = syms![0] }
        }
        return found
    }

    @Test func everyCharacterGetsAKeyThatXKBCompilesToItsKeysym() throws {
        var keymap = VirtualKeymap()
        let strokes = WaylandStrokes.text("aé€한👍") + [WaylandStrokes.special(KeyChord(.selectAll))]
        let changed = keymap.add(strokes.flatMap { $0.modifiers + [$0.keysym] })
        let again = keymap.add([0x61, 0xe9])
        #expect(changed && !again, "nothing new, no new keymap")
        let keys = try #require(Self.compiled(keymap), "xkbcommon refused:\n\(keymap.text)")
        for keysym in keymap.keysyms {
            #expect(keys[try #require(keymap.evdevCode(keysym))] == keysym, "keysym \(String(keysym, radix: 16))")
        }
        #expect(VirtualKeymap.modifierMask([VirtualKeymap.controlL]) == 4)
        #expect(VirtualKeymap.modifierMask([VirtualKeymap.shiftL, VirtualKeymap.controlL]) == 5)
        // Alt is Mod1 (bit 3) and Super Mod4 (bit 6): a Super chord held nothing before these were mapped.
        #expect(VirtualKeymap.modifierMask([VirtualKeymap.altL, VirtualKeymap.superL]) == 0x48)
    }

    @Test func itGrowsAndStartsOverPastItsCapacityWithWhatTheTextNeeds() {
        var keymap = VirtualKeymap()
        _ = keymap.add([0x61, 0x62])
        #expect(keymap.evdevCode(0x61) == 1 && keymap.evdevCode(0x62) == 2)
        _ = keymap.add([0x62, 0x63])
        #expect(keymap.keysyms == [0x61, 0x62, 0x63], "keys already sent keep their codes")
        let many = (0..<UInt32(VirtualKeymap.capacity)).map { 0x0100_4e00 + $0 }
        let changed = keymap.add(many)
        #expect(changed && keymap.keysyms == many)
    }
}
