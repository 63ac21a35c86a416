import DeckKit
import Foundation
import Testing

/// `Fixtures/rules/grids.json`: the grid sizes and the resize rule, the same file Web/test/rules.test.js runs.
struct ResizeCase: Decodable, CustomTestStringConvertible, Sendable {
    let name: String
    let from: GridSize
    let to: GridSize
    let pages: [[Button?]]
    let expect: [[Button?]]

    var testDescription: String { name }

    struct Shape: Decodable {
        let columns: Int
        let rows: Int
    }

    struct Table: Decodable {
        let grids: [String: Shape]
        let standard: GridSize
        let resizes: [ResizeCase]
    }

    static func table() throws -> Table { try RuleFixture.load("grids.json") }
}

@Test(arguments: try ResizeCase.table().resizes)
func resizeCase(_ row: ResizeCase) throws {
    var layout = try DeckLayout(pages: row.pages, grid: row.from)
    #expect(layout.pages == row.pages, "start pages in the table must already be normal")
    try layout.resize(to: row.to)
    #expect(layout.pages == row.expect)
    #expect(layout.grid == row.to)
    let keys = { (pages: [[Button?]]) in pages.joined().compactMap { $0?.label } }
    #expect(keys(layout.pages).sorted() == keys(row.pages).sorted(), "every key of the deck is kept")
}

@Test func theGridsAreTheFixtures() throws {
    let table = try ResizeCase.table()
    #expect(table.standard == GridSize.standard)
    #expect(Set(table.grids.keys) == Set(GridSize.allCases.map(\.rawValue)))
    for size in GridSize.allCases {
        #expect(table.grids[size.rawValue]?.columns == size.columns && table.grids[size.rawValue]?.rows == size.rows)
    }
}

@Test func shrinkingPastTheDecksLimitIsRefusedAndChangesNothing() throws {
    let full = [Button?](repeating: Button(label: "K", kind: .command("k")), count: 32)
    var layout = try DeckLayout(pages: Array(repeating: full, count: 60), grid: .eightByFour)
    let before = layout
    #expect(throws: LayoutError.tooManyPages(limit: DeckLayout.maxPages)) { try layout.resize(to: .threeByTwo) }
    #expect(layout == before)
}

@Test func aResizedDeckTakesEditsOfItsOwnSizeAndTravelsWithItsGrid() throws {
    var layout = DeckLayout.empty
    try DeviceMessage.SetGrid(grid: .fiveByThree).apply(to: &layout)
    #expect(layout.slots == 15 && layout.pages == [Array(repeating: nil, count: 15)])
    try layout.set(page: 0, index: 14, button: Button(label: "Last", kind: .command("x")))
    #expect(throws: LayoutError.indexOutOfRange(index: 15, slots: 15)) {
        try layout.set(page: 0, index: 15, button: Button(label: "X", kind: .command("x")))
    }
    try layout.set(page: 0, index: 2, button: Button(label: "Box", kind: .folder(pages: [])))
    #expect(
        layout.pages(in: [.init(page: 0, index: 2)]) == [Array(repeating: nil, count: 15)],
        "a new folder has the deck's size")
    let json = String(decoding: try JSONEncoder().encode(layout), as: UTF8.self)
    #expect(json.contains(#""grid":"5x3""#))
    #expect(try JSONDecoder().decode(DeckLayout.self, from: Data(json.utf8)) == layout)
    let standard = String(decoding: try JSONEncoder().encode(DeckLayout.empty), as: UTF8.self)
    #expect(!standard.contains("grid"), "a deck never resized keeps its old wire form")
}

@Test func anUnknownGridIsNotAMessage() {
    #expect(throws: (any Error).self) { try DeviceMessage.decode(Data(#"{"type":"setGrid","grid":"9x9"}"#.utf8)) }
}

@Test func aFolderKeyKeepsItsStateCommandThroughTheRulesAndAResize() throws {
    let state = StateSource(command: "folder-state", every: 5)
    let inner = [Button?](repeating: nil, count: GridSize.fourByThree.slots)
    let folder = Button(label: "Tools", kind: .folder(pages: [inner]), stateCommand: state)
    var layout = try DeckLayout(
        pages: [[folder] + [Button?](repeating: nil, count: GridSize.fourByThree.slots - 1)], grid: .fourByThree)
    #expect(layout.pages[0][0]?.stateCommand == state, "the page rule keeps what the folder key carries")
    try layout.resize(to: .fiveByThree)
    #expect(layout.pages[0][0]?.stateCommand == state, "a resize keeps what the folder key carries")
}
