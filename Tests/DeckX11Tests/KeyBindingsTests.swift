import DeckDesktop
import Testing

@testable import DeckX11

/// The typing plan without a display: which strokes use the layout's own keys, which get spare keycodes, that
/// everything a text needs is bound before its first key, that bindings are kept, and how spares are reused.
@Suite struct KeyBindingsTests {
    /// A tiny layout: `a` on 38 (`A` with Shift), space on 65, `1` on 10 (`!` with Shift), Return on 36.
    static func layout(_ keysym: UInt32) -> LayoutKey? {
        switch keysym {
        case 0x61: LayoutKey(keycode: 38, shifted: false)
        case 0x41: LayoutKey(keycode: 38, shifted: true)
        case 0x20: LayoutKey(keycode: 65, shifted: false)
        case 0x31: LayoutKey(keycode: 10, shifted: false)
        case 0x21: LayoutKey(keycode: 10, shifted: true)
        case 0xFF0D: LayoutKey(keycode: 36, shifted: false)
        default: nil
        }
    }

    @Test func charactersBecomeLatin1OrUnicodeKeysymsAndControlsAreSkipped() {
        let keysyms = KeyStroke.strokes(typing: "a é안✓👍\u{7}").map(\.keysym)
        #expect(keysyms == [0x61, 0x20, 0xE9, 0x100_C548, 0x100_2713, 0x101_F44D])
        // A grapheme of several scalars is typed scalar by scalar.
        #expect(KeyStroke.strokes(typing: "e\u{301}").map(\.keysym) == [0x65, 0x100_0301])
    }

    @Test func layoutKeysAreTappedAsTheyAreAndShiftIsHeldForTheSecondLevel() throws {
        var bindings = KeyBindings()
        let plannedSteps = bindings.plan(KeyStroke.strokes(typing: "aA!"), layout: Self.layout, spares: [200])
        let steps = try #require(plannedSteps)
        #expect(
            steps == [
                KeyBindings.Step(taps: [
                    KeyTap(keycode: 38), KeyTap(keycode: 38, modifiers: .shift), KeyTap(keycode: 10, modifiers: .shift),
                ])
            ])
    }

    @Test func everythingATextNeedsIsBoundInOneStepBeforeItsFirstKey() throws {
        var bindings = KeyBindings()
        let plannedSteps = bindings.plan(
            KeyStroke.strokes(typing: "안a녕 안"), layout: Self.layout, spares: [200, 201, 150])
        let steps = try #require(plannedSteps)
        #expect(steps.count == 1)
        #expect(steps[0].bind == [.init(keycode: 201, keysym: 0x100_C548), .init(keycode: 200, keysym: 0x100_B155)])
        #expect(steps[0].taps.map(\.keycode) == [201, 38, 200, 65, 201])
    }

    @Test func bindingsAreKeptSoTheSameCharactersLaterChangeNoKeymap() throws {
        var bindings = KeyBindings()
        _ = bindings.plan(KeyStroke.strokes(typing: "✓é"), layout: Self.layout, spares: [200, 201])
        // The spares are now ours: the display no longer lists them as empty.
        let plannedAgain = bindings.plan(KeyStroke.strokes(typing: "é✓"), layout: Self.layout, spares: [])
        let again = try #require(plannedAgain)
        #expect(again == [KeyBindings.Step(taps: [KeyTap(keycode: 200), KeyTap(keycode: 201)])])
    }

    @Test func whenSparesRunOutTheLeastRecentlyUsedAreReboundInANewStepNeverInsideOne() throws {
        var bindings = KeyBindings()
        let plannedFirst = bindings.plan(KeyStroke.strokes(typing: "가나"), layout: Self.layout, spares: [200, 201])
        let first = try #require(plannedFirst)
        #expect(first.count == 1)
        let plannedSteps = bindings.plan(KeyStroke.strokes(typing: "다나라"), layout: Self.layout, spares: [])
        let steps = try #require(plannedSteps)
        // 다 takes 가's keycode (least recently used); 라 finds both keycodes used in this step: a new step.
        #expect(steps.count == 2)
        #expect(steps[0].bind == [.init(keycode: 201, keysym: 0x100_B2E4)])
        #expect(steps[0].taps.map(\.keycode) == [201, 200])
        #expect(steps[1].bind == [.init(keycode: 201, keysym: 0x100_B77C)])
        #expect(steps[1].taps == [KeyTap(keycode: 201)])
    }

    @Test func withNoSpareAtAllTheTextIsRefused() {
        var bindings = KeyBindings()
        #expect(bindings.plan(KeyStroke.strokes(typing: "a✓"), layout: Self.layout, spares: []) == nil)
    }

    @Test func aLostBindingIsForgottenAndBoundAgain() throws {
        var bindings = KeyBindings()
        _ = bindings.plan(KeyStroke.strokes(typing: "✓"), layout: Self.layout, spares: [200])
        bindings.keepOnly { _ in false }  // a new layout loaded over keycode 200
        let plannedSteps = bindings.plan(KeyStroke.strokes(typing: "✓"), layout: Self.layout, spares: [200])
        let steps = try #require(plannedSteps)
        #expect(steps[0].bind == [.init(keycode: 200, keysym: 0x100_2713)])
    }

    @Test func theKeypadBindsWhatItLacksTogetherAndTapsNothing() {
        var bindings = KeyBindings()
        // `=` is missing, `!` needs Shift (so it gets a spare of its own), `1` is on the layout.
        let step = bindings.planBindings([0x3D, 0x21, 0x31], layout: Self.layout, spares: [200, 201, 202])
        #expect(step.bind == [.init(keycode: 202, keysym: 0x3D), .init(keycode: 201, keysym: 0x21)])
        #expect(step.taps.isEmpty)
        #expect(bindings.planBindings([0x3D, 0x21, 0x31], layout: Self.layout, spares: [200]).bind.isEmpty)
    }
}
