import DeckActions
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
        #expect(WaylandStrokes.special(.selectAll) == WaylandStroke(keysym: 0x61, modifiers: [0xffe3]))
        #expect(WaylandStrokes.special(.ctrlC) == WaylandStroke(keysym: 0x63, modifiers: [0xffe3]))
        #expect(WaylandStrokes.special(.shiftTab) == WaylandStroke(keysym: 0xff09, modifiers: [0xffe1]))
        #expect(WaylandStrokes.special(.returnKey) == WaylandStroke(keysym: 0xff0d))
        let all = SpecialKey.allCases.map(WaylandStrokes.special)
        #expect(Set(all.map(\.keysym)).count == all.count - 1, "only Tab and Shift+Tab share a keysym")
    }

    @Test func aFailureNamesTheCharacterOrTheKey() {
        let reason = WaylandStrokes.cannotType(WaylandStrokes.text("é")[0])
        #expect(reason.contains("“é”") && reason.contains("U+00E9"))
        #expect(WaylandStrokes.cannotType(WaylandStrokes.special(.esc)).contains("Escape"))
    }
}
