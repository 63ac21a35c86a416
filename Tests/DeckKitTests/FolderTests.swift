import DeckKit
import Foundation
import Testing

/// `Fixtures/rules/folders.json`: folder edits (run like the layout table) and page keys' turns, the same file
/// Web/test/rules.test.js runs.
@Test(arguments: try LayoutCase.all(from: "rules/folders.json"))
func folderTableCase(_ row: LayoutCase) throws {
    try layoutTableCase(row)
}

struct TurnCase: Decodable, CustomTestStringConvertible, Sendable {
    let name: String
    let go: String
    let page: Int?
    let from: Int
    let pageCount: Int
    let expect: Int?

    var testDescription: String { name }

    var turn: PageTurn {
        switch go {
        case "next": .next
        case "previous": .previous
        default: .page(page ?? -1)
        }
    }

    struct Table: Decodable {
        let maxFolderDepth: Int
        let turns: [TurnCase]
    }

    static func table() throws -> Table { try RuleFixture.load("folders.json") }
}

@Test(arguments: try TurnCase.table().turns)
func pageTurnCase(_ row: TurnCase) {
    #expect(row.turn.destination(from: row.from, pageCount: row.pageCount) == row.expect)
}

@Test func theFolderDepthIsTheFixtures() throws {
    #expect(try TurnCase.table().maxFolderDepth == DeckLayout.maxFolderDepth)
}

@Test func folderTableCoversEveryFolderError() throws {
    let errors = Set(try LayoutCase.all(from: "rules/folders.json").compactMap(\.error))
    #expect(errors.isSuperset(of: ["folderTooDeep", "notAFolder", "backSlot", "badPageTurn"]))
}

@Test func pagesInsideFoldersCountAgainstTheDecksLimit() throws {
    let full = Array(repeating: [Button?](repeating: Button(label: "K", kind: .command("k")), count: 12), count: 60)
    var layout = DeckLayout.empty
    let folder = Button(label: "Big", kind: .folder(pages: [[nil] + full[0].dropFirst()] + full.dropFirst()))
    try layout.set(page: 0, index: 0, button: folder)
    #expect(DeckLayout.pageCount(layout.pages) == 2 + 61)
    let before = layout
    #expect(throws: LayoutError.tooManyPages(limit: DeckLayout.maxPages)) {
        try layout.set(page: 0, index: 1, button: folder)
    }
    #expect(layout == before)
}

@Test func aPressInAFolderFindsItsKeyAndItsPathTravels() throws {
    var layout = DeckLayout.empty
    try layout.set(page: 0, index: 3, button: Button(label: "Media", kind: .folder(pages: [DeckLayout.emptyPage])))
    let path = [DeckLayout.Slot(page: 0, index: 3)]
    try layout.set(page: 0, index: 1, button: Button(label: "Play", kind: .media(.playPause)), in: path)
    #expect(layout.button(page: 0, index: 1, in: path)?.label == "Play")
    #expect(layout.button(page: 0, index: 1) == nil)
    let press = try DeviceMessage.decode(
        Data(#"{"type":"press","page":0,"index":1,"path":[{"page":0,"index":3}]}"#.utf8))
    #expect(press == .press(.init(page: 0, index: 1, path: path)))
    let bare = try DeviceMessage.decode(Data(#"{"type":"press","page":0,"index":1}"#.utf8))
    #expect(
        String(decoding: bare.encode(), as: UTF8.self) == #"{"index":1,"page":0,"type":"press"}"#,
        "no path: the old form")
}

@Test func aFolderLabelInsideIsCleanedLikeAnyLabel() throws {
    var layout = DeckLayout.empty
    let inner = Button(label: "\u{202E}Play", kind: .media(.playPause))
    let folder = Button(label: "Media", kind: .folder(pages: [[nil, inner] + Array(repeating: nil, count: 10)]))
    try DeviceMessage.SetButton(page: 0, index: 0, button: folder).apply(to: &layout)
    #expect(layout.button(page: 0, index: 1, in: [.init(page: 0, index: 0)])?.label == "Play")
}
