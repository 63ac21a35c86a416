import DeckKit
import Foundation
import Testing

/// One row of `Fixtures/rules/spans.json`, the wide-control table the JS tests run too.
struct SpanCase: CustomTestStringConvertible, Sendable {
    let name: String
    let grid: GridSize
    let page: [Button?]
    let covered: [Int: Int]?
    let error: String?

    var testDescription: String { name }

    static func all() throws -> [SpanCase] {
        let table = try #require(try Fixtures.json("rules/spans.json") as? [String: Any])
        return try #require(table["cases"] as? [[String: Any]]).map(SpanCase.init(row:))
    }

    init(row: [String: Any]) throws {
        name = try #require(row["name"] as? String)
        let gridName = try #require(row["grid"] as? String)
        grid = try #require(GridSize(rawValue: gridName))
        let data = try JSONSerialization.data(withJSONObject: try #require(row["page"]))
        page = try JSONDecoder().decode([Button?].self, from: data)
        covered = (row["covered"] as? [String: Int]).map { map in
            Dictionary(uniqueKeysWithValues: map.map { (Int($0.key)!, $0.value) })
        }
        error = row["error"] as? String
    }
}

@Test(arguments: try SpanCase.all())
func spanTableCase(_ row: SpanCase) throws {
    do {
        let covered = try Span.check(page: row.page, grid: row.grid)
        #expect(row.error == nil, "expected \(row.error ?? "")")
        #expect(covered == row.covered)
    } catch {
        #expect(error.name == row.error)
    }
}

@Test func aLayoutRefusesATileThatLeavesItsRowAndKeepsTheOldPages() throws {
    var layout = DeckLayout()
    let tile = Button(label: "Now", kind: .nowPlaying)
    #expect(tile.span == Span(slots: 2))
    #expect(throws: LayoutError.spanOutside(index: 3, slots: 2, along: "row")) {
        try layout.set(page: 0, index: 3, button: tile)
    }
    try layout.set(page: 0, index: 0, button: tile)
    #expect(throws: LayoutError.slotCovered(index: 1, by: 0)) {
        try layout.set(page: 0, index: 1, button: Button(label: "K", kind: .command("true")))
    }
    try layout.set(page: 0, index: 3, button: Button(label: "K", kind: .command("true")))
    #expect(throws: LayoutError.slotCovered(index: 1, by: 0)) {
        try layout.move(from: .init(page: 0, index: 3), to: .init(page: 0, index: 1))
    }
    #expect(throws: LayoutError.slotCovered(index: 3, by: 2)) {
        try layout.move(from: .init(page: 0, index: 0), to: .init(page: 0, index: 2))
    }
    try layout.move(from: .init(page: 0, index: 0), to: .init(page: 0, index: 1))
    #expect(layout.button(page: 0, index: 1) == tile)
    #expect(throws: LayoutError.badSpan("only now-playing tiles and sliders span slots")) {
        try layout.set(page: 0, index: 8, button: Button(label: "K", kind: .command("x"), span: Span(slots: 2)))
    }
}

@Test func aMediaStateIsSentAgainOnlyWhenMoreThanTheClockMovedIt() {
    let shown = HostMessage.MediaState(status: .playing, player: "p", title: "A", position: 10)
    var later = shown
    later.position = 15
    #expect(!later.differs(from: shown, after: 5))
    later.position = 40
    #expect(later.differs(from: shown, after: 5), "a seek")
    var paused = shown
    paused.status = .paused
    #expect(paused.differs(from: shown, after: 0))
    var other = shown
    other.title = "B"
    #expect(other.differs(from: shown, after: 0))
    var stillPaused = paused
    stillPaused.position = 10.5
    #expect(!stillPaused.differs(from: paused, after: 30), "a paused track's position stays")
}

@Test func aSliderKeepsItsBindingOnTheWireAndRefusesWhatCannotBeFollowed() throws {
    let wire = #"{"app":"Firefox","bind":"app","kind":"slider","label":"Web","span":3,"along":"column"}"#
    let slider = try JSONDecoder().decode(Button.self, from: Data(wire.utf8))
    #expect(slider.kind == .slider(.app("Firefox")))
    #expect(slider.span == Span(slots: 3, along: .column))
    #expect(try JSONDecoder().decode(Button.self, from: JSONEncoder().encode(slider)) == slider)
    let bare = try JSONDecoder().decode(
        Button.self, from: Data(#"{"kind":"slider","bind":"speakers","label":"V"}"#.utf8))
    #expect(bare.span == Span(slots: 2), "a slider without span covers 2 slots along its row")
    var layout = DeckLayout()
    #expect(throws: LayoutError.badSlider("a script slider's command holds {value} (0…100) and is at most 4096 bytes"))
    {
        try layout.set(page: 0, index: 0, button: Button(label: "L", kind: .slider(.script("light"))))
    }
    #expect(throws: LayoutError.badSpan("a slider spans 2 to 4 slots")) {
        try layout.set(page: 0, index: 0, button: Button(label: "L", kind: .slider(.speakers), span: Span(slots: 5)))
    }
    #expect(SliderBinding.script("light {value} --fade").command(for: 0.354) == "light 35 --fade")
}

@Test func aScriptSliderRunsAtMostTwentyTimesASecondAndItsLastValueAlways() {
    var throttle = SliderThrottle<Int>()
    #expect(throttle.offer(1, now: 0) == .now)
    #expect(throttle.offer(1, now: 0.01) == .later(at: 0.05, alreadyPlanned: false))
    #expect(throttle.offer(1, now: 0.02) == .later(at: 0.05, alreadyPlanned: true), "one run waits, the latest value")
    #expect(throttle.offer(2, now: 0.02) == .now, "each slider on its own")
    throttle.ran(1, now: 0.05)
    #expect(throttle.offer(1, now: 0.11) == .now)
}
