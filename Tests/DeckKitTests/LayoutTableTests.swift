import DeckKit
import Foundation
import Testing

/// One row of `Fixtures/rules/layout.json`, the edit table the JS tests run too.
struct LayoutCase: CustomTestStringConvertible, Sendable {
    let name: String
    let start: [[Button?]]
    let edit: DeviceMessage
    let expect: [[Button?]]?
    let error: String?

    var testDescription: String { name }

    static func all(from file: String = "rules/layout.json") throws -> [LayoutCase] {
        let table = try #require(try Fixtures.json(file) as? [String: Any])
        let rows = try #require(table["cases"] as? [[String: Any]])
        return try rows.map(LayoutCase.init(row:))
    }

    init(row: [String: Any]) throws {
        name = try #require(row["name"] as? String)
        start = try Self.pages(row["start"])
        edit = try DeviceMessage.decode(try JSONSerialization.data(withJSONObject: try #require(row["edit"])))
        expect = try row["expect"].map(Self.pages)
        error = row["error"] as? String
    }

    private static func pages(_ value: Any?) throws -> [[Button?]] {
        let data = try JSONSerialization.data(withJSONObject: try #require(value))
        return try JSONDecoder().decode([[Button?]].self, from: data)
    }
}

@Test(arguments: try LayoutCase.all())
func layoutTableCase(_ row: LayoutCase) throws {
    var layout = try DeckLayout(pages: row.start)
    #expect(layout.pages == row.start, "start pages in the table must already be normal")
    let edit = try #require(row.edit.layoutEdit)
    do {
        try edit.apply(to: &layout)
        #expect(row.error == nil, "expected \(row.error ?? "")")
        #expect(layout.pages == row.expect)
    } catch let error as LayoutError {
        #expect(error.name == row.error)
        #expect(layout.pages == row.start, "a refused edit leaves the layout unchanged")
    }
}

@Test func tableCoversEveryEditAndEveryError() throws {
    let rows = try LayoutCase.all()
    #expect(rows.count >= 20)
    #expect(Set(rows.map(\.edit.type)) == ["setButton", "clearButton", "moveButton"])
    #expect(
        Set(rows.compactMap(\.error))
            == ["pageOutOfRange", "indexOutOfRange", "emptySlot", "tooManyPages", "fieldTooLong", "badTarget"])
}
