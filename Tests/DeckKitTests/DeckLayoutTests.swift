import DeckKit
import Foundation
import Testing

private let files = Button(label: "Files", kind: .app(appId: "org.gnome.Nautilus.desktop"))

@Test func settingOnLastPageAppendsEmptyPage() throws {
    var layout = DeckLayout.empty
    try layout.set(page: 0, index: 3, button: files)
    #expect(layout.pages.count == 2)
    #expect(layout.pages[0][3]?.label == "Files")
}

@Test func clearingTrimsTrailingEmptyPages() throws {
    var layout = DeckLayout.empty
    try layout.set(page: 0, index: 0, button: Button(label: "a", kind: .terminal(directory: "")))
    try layout.set(page: 1, index: 0, button: Button(label: "b", kind: .terminal(directory: "")))
    try layout.clear(page: 1, index: 0)
    #expect(layout.pages.count == 2)
}

@Test func emptyLayoutHasExactlyOnePage() {
    #expect(DeckLayout.empty.pages == [DeckLayout.emptyPage])
    #expect(DeckLayout.emptyPage.count == 12)
    #expect(DeckLayout.normalize([]) == [DeckLayout.emptyPage])
    #expect(DeckLayout.normalize(Array(repeating: DeckLayout.emptyPage, count: 4)) == [DeckLayout.emptyPage])
}

@Test func normalizeKeepsOneTrailingEmptyPage() {
    var full = DeckLayout.emptyPage
    full[0] = files
    let empty = DeckLayout.emptyPage
    #expect(DeckLayout.normalize([full]) == [full, empty])
    #expect(DeckLayout.normalize([full, empty, empty, empty]) == [full, empty])
    #expect(DeckLayout.normalize([empty, full]) == [empty, full, empty])
}

@Test func pagesFromOutsideMustHaveTwelveSlots() {
    #expect(throws: LayoutError.wrongPageSize(page: 1, count: 11)) {
        try DeckLayout(pages: [DeckLayout.emptyPage, Array(repeating: nil, count: 11)])
    }
}

@Test func invalidSlotsThrowInsteadOfTrapping() {
    var layout = DeckLayout.empty
    #expect(throws: LayoutError.pageOutOfRange(page: 5, pageCount: 1)) { try layout.clear(page: 5, index: 0) }
    #expect(throws: LayoutError.indexOutOfRange(index: 12, slots: 12)) {
        try layout.set(page: 0, index: 12, button: files)
    }
    #expect(throws: LayoutError.emptySlot(page: 0, index: 0)) {
        try layout.move(from: .init(page: 0, index: 0), to: .init(page: 0, index: 1))
    }
    #expect(layout.button(page: 9, index: -1) == nil)
}

@Test func buttonJSONIsFlatBesideKind() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let blog = Button(label: "Blog", kind: .command("blogrun"))
    #expect(
        String(decoding: try encoder.encode(blog), as: UTF8.self)
            == #"{"command":"blogrun","kind":"command","label":"Blog"}"#)
    let home = Button(label: "Home", kind: .terminal(directory: ""))
    #expect(
        String(decoding: try encoder.encode(home), as: UTF8.self)
            == #"{"directory":"","kind":"terminal","label":"Home"}"#)
}

@Test func aRecordKeyKeepsItsMonitorAndTakesTheNearerRate() throws {
    let decoded = try JSONDecoder().decode(Button.self, from: Data(#"{"label":"Rec","kind":"record","fps":50}"#.utf8))
    #expect(decoded == Button(label: "Rec", kind: .record(displayId: nil, fps: 60)))
    let slow = try JSONDecoder().decode(Button.self, from: Data(#"{"label":"R","kind":"record","displayId":3}"#.utf8))
    #expect(slow == Button(label: "R", kind: .record(displayId: 3, fps: 30)))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
        String(decoding: try encoder.encode(slow), as: UTF8.self)
            == #"{"displayId":3,"fps":30,"kind":"record","label":"R"}"#)
}
