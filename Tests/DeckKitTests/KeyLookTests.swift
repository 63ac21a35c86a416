import DeckKit
import Foundation
import Testing

/// One row of `Fixtures/rules/looks.json`, the looks table the JS tests and the Python client read too.
struct LookCase: CustomTestStringConvertible, Sendable {
    let name: String
    let button: Data
    let error: String?

    var testDescription: String { name }

    static func table() throws -> [String: Any] {
        try #require(try Fixtures.json("rules/looks.json") as? [String: Any])
    }

    static func all() throws -> [LookCase] {
        let rows = try #require(try table()["cases"] as? [[String: Any]])
        return try rows.map { row in
            LookCase(
                name: try #require(row["name"] as? String),
                button: try JSONSerialization.data(withJSONObject: try #require(row["button"])),
                error: row["error"] as? String)
        }
    }
}

@Test(arguments: try LookCase.all())
func lookTableCase(_ row: LookCase) throws {
    let button: Button
    do {
        button = try JSONDecoder().decode(Button.self, from: row.button)
    } catch is DecodingError {
        #expect(row.error == "malformed", "the button should decode")
        return
    }
    var layout = DeckLayout.empty
    do {
        try layout.set(page: 0, index: 0, button: button)
        #expect(row.error == nil, "expected \(row.error ?? "")")
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(button)) as? NSDictionary
        let given = try JSONSerialization.jsonObject(with: row.button) as? NSDictionary
        #expect(written == given, "a kept button is written back as it came")
    } catch let error as LayoutError {
        #expect(error.name == row.error)
        #expect(layout == .empty, "a refused look leaves the layout unchanged")
    }
}

@Test func thePaletteIsTheFixturesAndHasTwelveColours() throws {
    #expect(try LookCase.table()["palette"] as? [String] == KeyLook.palette)
    #expect(Set(KeyLook.palette).count == 12)
}

@Test func lookTableCoversEveryOutcome() throws {
    let outcomes = Set(try LookCase.all().map { $0.error ?? "kept" })
    #expect(outcomes == ["kept", "badColor", "badIcon", "malformed"])
}

@Test func aRefusedLookSaysWhatIsWrongInWords() {
    #expect(
        LayoutError.badColor("chartreuse").wireMessage.hasPrefix(
            "unknown colour “chartreuse”: a key's colour is one of red,"))
    let long = String(repeating: "x", count: 500)
    #expect(LayoutError.badColor(long).wireMessage.count < 200, "a long name is not echoed whole")
    var layout = DeckLayout.empty
    let flood = Button(label: "E", kind: .command("e"), look: KeyLook(icon: .emoji(String(repeating: "😀", count: 200))))
    #expect(throws: LayoutError.badIcon("an emoji icon is one character, not 200")) {
        try layout.set(page: 0, index: 0, button: flood)
    }
}

@Test func looksSurviveALayoutRoundTrip() throws {
    var layout = DeckLayout.empty
    let look = KeyLook(color: "pink", icon: .app(appId: "firefox.desktop"), hideLabel: true)
    try layout.set(page: 0, index: 4, button: Button(label: "Web", kind: .command("firefox"), look: look))
    let again = try JSONDecoder().decode(DeckLayout.self, from: JSONEncoder().encode(layout))
    #expect(again.button(page: 0, index: 4)?.look == look)
}
