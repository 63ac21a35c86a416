import DeckKit
import Testing

/// The host's undo (PROTOCOL §6 "Moving keys, copy and undo"): 20 steps per profile, newest first, an edit that
/// changed nothing no step, and one profile's history apart from another's.
@Suite struct UndoHistoryTests {
    static func layout(_ label: String) throws -> DeckLayout {
        var layout = DeckLayout()
        try layout.set(page: 0, index: 0, button: Button(label: label, kind: .command("true")))
        return layout
    }

    @Test func undoGoesBackOneEditAtATimeAndKeepsTwenty() throws {
        var history = UndoHistory()
        var layouts = [DeckLayout.empty]
        for n in 1...25 { layouts.append(try Self.layout("K\(n)")) }
        for n in 1...25 { history.record(layouts[n - 1], before: layouts[n], profile: "Default") }
        #expect(history.steps(profile: "Default") == UndoHistory.limit)
        for n in stride(from: 24, through: 5, by: -1) { #expect(history.undo(profile: "default") == layouts[n]) }
        #expect(history.undo(profile: "Default") == nil, "the five oldest edits are gone")
    }

    @Test func anEditThatChangedNothingIsNoStepAndProfilesKeepTheirOwn() throws {
        var history = UndoHistory()
        let one = try Self.layout("One")
        history.record(one, before: one, profile: "Default")
        #expect(history.steps(profile: "Default") == 0)
        history.record(.empty, before: one, profile: "Phone")
        #expect(history.undo(profile: "Default") == nil)
        history.forget(profile: "Phone")
        #expect(history.undo(profile: "Phone") == nil)
    }
}
