import DeckKit
import Testing

private struct TwoFingerFixture: Decodable {
    struct Case: Decodable {
        let name: String
        let current: String
        let spread: Double
        let moved: Double
        let zoom: Double
        let covered: Double
        let expect: String
    }
    let twoFinger: [Case]
}

@Test func twoFingerFollowsTheSharedFixture() throws {
    let cases = try RuleFixture.load("geometry.json", as: TwoFingerFixture.self).twoFinger
    #expect(cases.count >= 11)
    for c in cases {
        let current = try #require(TwoFinger(rawValue: c.current))
        let got = TwoFinger.decide(current, spread: c.spread, moved: c.moved, zoom: c.zoom, covered: c.covered)
        #expect(got.rawValue == c.expect, "\(c.name)")
    }
}

/// Seed part 8's table: spread → zoom at both sizes; a swipe scrolls at 1× and pans when zoomed.
@Test func spreadZoomsAndSwipeDependsOnZoom() {
    #expect(TwoFinger.decide(.undecided, spread: 1.09, moved: 0, zoom: 1) == .zoom)
    #expect(TwoFinger.decide(.undecided, spread: 0.91, moved: 0, zoom: 2) == .zoom)
    #expect(TwoFinger.decide(.undecided, spread: 1, moved: 12.5, zoom: 1) == .scroll)
    #expect(TwoFinger.decide(.undecided, spread: 1, moved: 12.5, zoom: 2) == .pan)
}

@Test func swipeWhileZoomedMovesView() {
    #expect(TwoFinger.decide(.undecided, spread: 1.02, moved: 40, zoom: 1.5) == .pan)
}

@Test func swipeAtNormalSizeMovesViewWhenBottomIsCovered() {
    #expect(TwoFinger.decide(.undecided, spread: 1, moved: 40, zoom: 1, covered: 1) == .pan)
    #expect(TwoFinger.decide(.undecided, spread: 1, moved: 40, zoom: 1, covered: 0) == .scroll)
}

@Test func decidedModeSticks() {
    var mode = TwoFinger.undecided
    mode = TwoFinger.decide(mode, spread: 1.01, moved: 5, zoom: 1)
    #expect(mode == .undecided)
    mode = TwoFinger.decide(mode, spread: 1.01, moved: 20, zoom: 1)
    #expect(mode == .scroll)
    // the fingers drift apart later in the same gesture: still a scroll
    mode = TwoFinger.decide(mode, spread: 1.5, moved: 60, zoom: 1)
    #expect(mode == .scroll)
}

@Test func thresholdsMatchTheSeed() {
    #expect(TwoFinger.zoomSpread == 0.08)
    #expect(TwoFinger.moveDistance == 12)
}
