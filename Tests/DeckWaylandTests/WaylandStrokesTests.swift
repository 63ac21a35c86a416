import DeckDesktop
import DeckKit
import Testing

@testable import DeckWayland

/// Text and special keys as the keysyms Wayland back-ends send (no compositor needed).
struct WaylandStrokesTests {
    @Test func charactersUseTheLayoutsOwnKeysymsAndSkipControls() {
        let strokes = WaylandStrokes.text("aA é€한👍\u{7}\u{85}")
        // Latin-1 equals the code point; € has a legacy keysym (EuroSign) that layouts list; 한 and 👍 have none.
        #expect(strokes.map(\.keysym) == [0x61, 0x41, 0x20, 0xe9, 0x20ac, 0x0100_d55c, 0x0101_f44d])
        #expect(strokes.allSatisfy { $0.modifiers.isEmpty })
        #expect(strokes.compactMap(\.character).map(\.value) == [0x61, 0x41, 0x20, 0xe9, 0x20ac, 0xd55c, 0x1f44d])
    }

    @Test func specialKeysHoldTheirModifiers() {
        #expect(WaylandStrokes.special(KeyChord(.selectAll)) == WaylandStroke(keysym: 0x61, modifiers: [0xffe3]))
        #expect(WaylandStrokes.special(KeyChord(.ctrlC)) == WaylandStroke(keysym: 0x63, modifiers: [0xffe3]))
        #expect(WaylandStrokes.special(KeyChord(.shiftTab)) == WaylandStroke(keysym: 0xff09, modifiers: [0xffe1]))
        #expect(WaylandStrokes.special(KeyChord(.returnKey)) == WaylandStroke(keysym: 0xff0d))
        let all = KeyChord.Named.allCases.map { WaylandStrokes.special(KeyChord($0)) }
        #expect(Set(all.map(\.keysym)).count == all.count - 1, "only Tab and Shift+Tab share a keysym")
    }

    @Test func chordsHoldTheirModifiersInOrderAroundTheKey() {
        let reopen = KeyChord(character: "t", modifiers: [.ctrl, .shift])
        #expect(WaylandStrokes.special(reopen) == WaylandStroke(keysym: 0x74, modifiers: [0xffe3, 0xffe1]))
        #expect(
            WaylandStrokes.special(KeyChord(.tab, modifiers: [.alt]))
                == WaylandStroke(keysym: 0xff09, modifiers: [0xffe9]))
        #expect(WaylandStrokes.special(KeyChord(.f5)) == WaylandStroke(keysym: 0xffc2))
        #expect(
            WaylandStrokes.special(KeyChord(.f12, modifiers: [.superKey]))
                == WaylandStroke(keysym: 0xffc9, modifiers: [0xffeb]))
        // Shift-Tab asked for Shift again holds it once.
        #expect(
            WaylandStrokes.special(KeyChord(.shiftTab, modifiers: [.shift, .ctrl]))
                == WaylandStroke(keysym: 0xff09, modifiers: [0xffe1, 0xffe3]))
        #expect(WaylandStrokes.special(KeyChord(character: "€")) == WaylandStroke(keysym: 0x20ac))
    }

    @Test func aFailureNamesTheCharacterOrTheKey() {
        let reason = WaylandStrokes.cannotType(WaylandStrokes.text("é")[0])
        #expect(reason.contains("“é”") && reason.contains("U+00E9"))
        #expect(WaylandStrokes.cannotType(WaylandStrokes.special(KeyChord(.esc))).contains("Escape"))
    }
}
