import DeckKit
import Testing

/// Renaming a profile (issue 22, PROTOCOL §6 "Profiles"): its place and keys kept, the shared current one followed,
/// a name another profile has refused, and every profile key that shows it renamed with it.
@Suite struct ProfileRenameTests {
    @Test func aRenameKeepsThePlaceAndTheCurrentAndRefusesATakenName() throws {
        var set = ProfileSet()
        try set.add("Phone")
        try set.add("Tablet")
        try set.switchCurrent(to: "Phone")
        #expect(try set.rename("phone", to: "  Small  ") == "Small")
        #expect(set.names == ["Default", "Small", "Tablet"] && set.current == "Small")
        #expect(throws: ProfileError.nameTaken("Tablet")) { try set.rename("Small", to: "TABLET") }
        #expect(throws: ProfileError.badName) { try set.rename("Small", to: " \u{202E} ") }
        #expect(throws: ProfileError.noSuchProfile("Gone")) { try set.rename("Gone", to: "Here") }
        #expect(try set.rename("small", to: "SMALL") == "SMALL", "the same profile may change its case")
        #expect(set.names == ["Default", "SMALL", "Tablet"] && set.current == "SMALL")
    }

    @Test func profileKeysThatShowItAreRenamedEverywhere() throws {
        let toPhone = Button(label: "Phone", kind: .profile("phone"))
        let toOther = Button(label: "Other", kind: .profile("Tablet"))
        let toggle = Button(
            label: "T", kind: .toggle(Toggle(on: toPhone, off: Button(label: "x", kind: .terminal(directory: "")))))
        let multi = Button(label: "M", kind: .multi([.delay(milliseconds: 10), .key(toPhone)]))
        var layout = DeckLayout()
        try layout.set(page: 0, index: 0, button: toPhone)
        try layout.set(page: 0, index: 1, button: toOther)
        try layout.set(page: 0, index: 2, button: toggle)
        try layout.set(page: 0, index: 3, button: multi)
        try layout.set(page: 0, index: 4, button: Button(label: "F", kind: .folder(pages: [])))
        try layout.set(page: 0, index: 1, button: toPhone, in: [DeckLayout.Slot(page: 0, index: 4)])
        var set = ProfileSet(layout: layout)
        try set.add("Phone")
        try set.add("Tablet")
        try set.rename("Phone", to: "Small")
        let renamed = try #require(set.layout(of: "Default"))
        let toSmall = Button(label: "Phone", kind: .profile("Small"))
        #expect(renamed.button(page: 0, index: 0) == toSmall)
        #expect(renamed.button(page: 0, index: 1) == toOther)
        guard case .toggle(let kept) = renamed.button(page: 0, index: 2)?.kind else {
            Issue.record("no toggle")
            return
        }
        #expect(kept.on == toSmall)
        guard case .multi(let steps) = renamed.button(page: 0, index: 3)?.kind else {
            Issue.record("no multi")
            return
        }
        #expect(steps == [.delay(milliseconds: 10), .key(toSmall)])
        guard case .folder(let inner) = renamed.button(page: 0, index: 4)?.kind else {
            Issue.record("no folder")
            return
        }
        #expect(inner[0][1] == toSmall)
    }

    @Test func undoStepsGoOnUnderTheNewName() {
        var history = UndoHistory()
        history.record(.empty, before: DeckLayout.emptyGridForTest, profile: "Phone")
        history.rename(profile: "phone", to: "Small")
        #expect(history.steps(profile: "small") == 1 && history.steps(profile: "Phone") == 0)
    }
}

extension DeckLayout {
    fileprivate static var emptyGridForTest: DeckLayout {
        var layout = DeckLayout()
        try? layout.set(page: 0, index: 0, button: Button(label: "x", kind: .terminal(directory: "")))
        return layout
    }
}
