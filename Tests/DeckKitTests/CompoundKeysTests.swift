import DeckKit
import Foundation
import Testing

/// `Fixtures/rules/compound-keys.json`: multi-actions and toggles, the table the JS tests run too.
enum CompoundFixture {
    static func table() throws -> [String: Any] {
        try #require(try Fixtures.json("rules/compound-keys.json") as? [String: Any])
    }

    static func cases() throws -> [LayoutCase] {
        let rows = try #require(try table()["cases"] as? [[String: Any]])
        return try rows.map(LayoutCase.init(row:))
    }
}

@Test(arguments: try CompoundFixture.cases())
func compoundKeyCase(_ row: LayoutCase) throws {
    try layoutTableCase(row)
}

@Test func compoundTableCoversEveryRule() throws {
    let rows = try CompoundFixture.cases()
    #expect(
        Set(rows.compactMap(\.error)) == ["stepCount", "delayOutOfRange", "nestedKey", "badTarget", "fieldTooLong"])
    #expect(rows.contains { $0.expect != nil && $0.edit.type == "moveButton" })
}

/// The wire example decodes to both kinds and encodes back to the same bytes (keys sorted, as the host sends).
@Test func compoundWireExampleRoundTrips() throws {
    let wire = try #require(try CompoundFixture.table()["wire"])
    let bytes = try JSONSerialization.data(withJSONObject: wire, options: [.sortedKeys, .withoutEscapingSlashes])
    let message = try HostMessage.decode(bytes)
    guard case .layout(let body) = message else {
        Issue.record("decoded as \(message.type)")
        return
    }
    #expect(String(decoding: message.encode(), as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
    guard case .multi(let steps) = body.layout.button(page: 0, index: 0)?.kind else {
        Issue.record("slot 0 is not a multi-action")
        return
    }
    #expect(steps.count == 4)
    #expect(steps[1] == .delay(milliseconds: 250))
    guard case .toggle(let toggle) = body.layout.button(page: 0, index: 3)?.kind else {
        Issue.record("slot 3 is not a toggle")
        return
    }
    #expect(toggle.isOn && toggle.onLabel == "Mic on" && toggle.next == toggle.off)
}

@Test func theRefusalsSayWhatIsWrong() {
    #expect(LayoutError.stepCount(limit: 16).wireMessage == "a multi-action has 1 to 16 steps")
    #expect(LayoutError.delayOutOfRange.wireMessage.contains("10 ms to 10 s"))
    #expect(LayoutError.nestedKey.wireMessage.contains("cannot be multi-actions or toggles"))
}

@Test func aToggleFlipsOnlyWhileItsSlotHoldsWhatWasPressed() throws {
    let toggle = Button(
        label: "Mic",
        kind: .toggle(
            Toggle(on: Button(label: "", kind: .command("on")), off: Button(label: "", kind: .command("off")))))
    var layout = DeckLayout()
    try layout.set(page: 0, index: 2, button: toggle)
    let slot = DeckLayout.Slot(page: 0, index: 2)
    let flippedOnce = layout.flipToggle(at: slot, pressed: toggle)
    #expect(flippedOnce)
    guard case .toggle(let flipped) = layout.button(page: 0, index: 2)?.kind else {
        Issue.record("no toggle")
        return
    }
    #expect(flipped.isOn)
    // The press saw it off; it is on now (another press flipped it first): this one changes nothing.
    let flippedAgain = layout.flipToggle(at: slot, pressed: toggle)
    let flippedElsewhere = layout.flipToggle(at: DeckLayout.Slot(page: 0, index: 3), pressed: toggle)
    #expect(!flippedAgain && !flippedElsewhere)
}

@Test func aToggleLabelIsCleanedLikeAnyLabel() throws {
    let toggle = Toggle(
        on: Button(label: "", kind: .command("on")), off: Button(label: "", kind: .command("off")),
        onLabel: " On\u{202E} ", offLabel: "Off\u{7}")
    var layout = DeckLayout()
    try DeviceMessage.SetButton(page: 0, index: 0, button: Button(label: "T", kind: .toggle(toggle))).apply(to: &layout)
    guard case .toggle(let stored) = layout.button(page: 0, index: 0)?.kind else {
        Issue.record("no toggle")
        return
    }
    #expect(stored.onLabel == "On" && stored.offLabel == "Off")
}
