import DeckKit
import Foundation
import Testing

/// One row of `Fixtures/rules/chords.json`, the chord table Web/test/hotkeys.test.js and the Python client read too.
struct ChordCase: CustomTestStringConvertible, Sendable {
    let name: String
    let key: String?
    let modifiers: [String]?
    let problem: String?

    var testDescription: String { name }

    static func table() throws -> [String: Any] {
        try #require(try Fixtures.json("rules/chords.json") as? [String: Any])
    }

    static func all() throws -> [ChordCase] {
        let rows = try #require(try table()["chords"] as? [[String: Any]])
        return try rows.map { row in
            ChordCase(
                name: try #require(row["name"] as? String), key: row["key"] as? String,
                modifiers: row["modifiers"] as? [String], problem: row["problem"] as? String)
        }
    }

    /// The hotkey button as a device sends it, `key` and `modifiers` left out when the row leaves them out.
    var button: [String: Any] {
        var button: [String: Any] = ["label": "", "kind": "hotkey"]
        button["key"] = key
        button["modifiers"] = modifiers
        return button
    }
}

@Test(arguments: try ChordCase.all())
func chordTableCase(_ row: ChordCase) throws {
    let reasons = try #require(try ChordCase.table()["reasons"] as? [String: String])
    // The rule itself.
    switch KeyChord.read(key: row.key, modifiers: row.modifiers ?? []) {
    case .success(let chord):
        #expect(row.problem == nil, "expected \(row.problem ?? "")")
        #expect(chord.name == row.key)
        #expect(chord.modifiers.map(\.rawValue) == row.modifiers ?? [])
    case .failure(let problem): #expect(problem.rawValue == row.problem)
    }
    // A hotkey button read from JSON, as config.json and a profile file are: it round-trips, or the error carries
    // the problem.
    let data = try JSONSerialization.data(withJSONObject: row.button)
    do {
        let button = try JSONDecoder().decode(Button.self, from: data)
        #expect(row.problem == nil)
        let back = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(button)) as? [String: Any])
        #expect(back["key"] as? String == row.key)
        #expect((back["modifiers"] as? [String] ?? []) == row.modifiers ?? [])
    } catch DecodingError.dataCorrupted(let context) {
        #expect((context.underlyingError as? KeyChord.Problem)?.rawValue == row.problem)
    }
    // A setButton holding it: refused with the host's words for the problem.
    let message = try JSONSerialization.data(withJSONObject: [
        "type": "setButton", "page": 0, "index": 0, "button": row.button,
    ])
    do {
        _ = try DeviceMessage.decode(message)
        #expect(row.problem == nil)
    } catch {
        let reason = try #require(row.problem.flatMap { reasons[$0] }, "refused: \(error)")
        #expect(error == .malformed(reason))
        #expect(HostMessage.ErrorReply(for: error).code == .badMessage)
    }
}

@Test func chordTableNamesEveryProblemInTheHostsWords() throws {
    let reasons = try #require(try ChordCase.table()["reasons"] as? [String: String])
    let hosts = KeyChord.Problem.allCases.map { ($0.rawValue, $0.wireMessage) }
    #expect(reasons == Dictionary(uniqueKeysWithValues: hosts))
    #expect(Set(try ChordCase.all().compactMap(\.problem)) == Set(KeyChord.Problem.allCases.map(\.rawValue)))
    // The case the issue names: five modifiers and no key.
    let five = try #require(try ChordCase.all().first { $0.name == "five modifiers and no key" })
    #expect(five.key == nil && five.modifiers?.count == 5 && five.problem == "noKey")
}

/// The named keys are pressKey's, every one (the host presses a hotkey as it presses pressKey's key).
@Test func everyNamedKeyIsAChord() {
    for named in KeyChord.Named.allCases {
        #expect(throws: Never.self) { try KeyChord.read(key: named.rawValue, modifiers: ["ctrl"]).get() }
    }
}
