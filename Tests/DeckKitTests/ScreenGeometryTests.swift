import DeckKit
import Foundation
import Testing

private struct GeometryFixture: Decodable {
    struct Fit: Decodable {
        let name: String
        let width: Int
        let height: Int
        let maxSide: Int
        let expect: [Int]
    }
    struct Normalized: Decodable {
        let name: String
        let touch: [Double]
        let view: [Double]
        let video: [Double]
        let zoom: Double
        let offset: [Double]
        let expect: [Double]?
    }
    struct Global: Decodable {
        let name: String
        let normalized: [Double]
        let display: [Double]
        let expect: [Double]
    }
    struct Clamp: Decodable {
        let name: String
        let offset: [Double]
        let zoom: Double
        let view: [Double]
        let covered: Double
        let expect: [Double]
    }
    let fit: [Fit]
    let normalized: [Normalized]
    let global: [Global]
    let clampOffset: [Clamp]

    static func load() throws -> GeometryFixture { try RuleFixture.load("geometry.json") }
}

private func size(_ pair: [Double]) -> Size { Size(width: pair[0], height: pair[1]) }
private func point(_ pair: [Double]) -> Point { Point(x: pair[0], y: pair[1]) }

@Test func fitFollowsTheSharedFixture() throws {
    let cases = try GeometryFixture.load().fit
    #expect(cases.count >= 8)
    for c in cases {
        let got = ScreenGeometry.fit(width: c.width, height: c.height, maxSide: c.maxSide)
        #expect([got.width, got.height] == c.expect, "\(c.name)")
    }
}

@Test func fitKeepsSidesEvenAndWithinLimits() {
    for (width, height) in [(3441, 1441), (1366, 768), (7680, 4320), (333, 999), (5, 3)] {
        for request in [-5, 0, 319, 321, 1001, 2388, 4000] {
            let got = ScreenGeometry.fit(width: width, height: height, maxSide: request)
            #expect(got.width % 2 == 0 && got.height % 2 == 0)
            #expect(max(got.width, got.height) <= ScreenGeometry.maxSide)
            #expect(got.width <= max(2, width) && got.height <= max(2, height))
        }
    }
    #expect(ScreenGeometry.minSide == 320)
    #expect(ScreenGeometry.maxSide == 3840)
}

@Test func touchToVideoFollowsTheSharedFixture() throws {
    let cases = try GeometryFixture.load().normalized
    #expect(cases.count >= 8)
    for c in cases {
        let got = ScreenGeometry.normalized(
            touch: point(c.touch), view: size(c.view), video: size(c.video), zoom: c.zoom, offset: size(c.offset))
        if let expect = c.expect {
            let ok = got.map { RuleFixture.close($0.x, expect[0]) && RuleFixture.close($0.y, expect[1]) } ?? false
            #expect(ok, "\(c.name): got \(String(describing: got))")
        } else {
            #expect(got == nil, "\(c.name)")
        }
    }
}

@Test func videoToDesktopFollowsTheSharedFixture() throws {
    let cases = try GeometryFixture.load().global
    #expect(cases.count >= 5)
    for c in cases {
        let display = Rect(x: c.display[0], y: c.display[1], width: c.display[2], height: c.display[3])
        let got = ScreenGeometry.global(normalized: point(c.normalized), display: display)
        #expect(got == point(c.expect), "\(c.name)")
    }
}

@Test func notANumberLandsOnTheOrigin() {
    let display = Rect(x: -1512, y: 200, width: 1512, height: 982)
    let got = ScreenGeometry.global(normalized: Point(x: .nan, y: .nan), display: display)
    #expect(got == Point(x: -1512, y: 200))
}

@Test func clampOffsetFollowsTheSharedFixture() throws {
    let cases = try GeometryFixture.load().clampOffset
    #expect(cases.count >= 6)
    for c in cases {
        let got = ScreenGeometry.clampOffset(size(c.offset), zoom: c.zoom, view: size(c.view), covered: c.covered)
        #expect(got == size(c.expect), "\(c.name)")
    }
}

@Test func coveredBottomLetsViewMoveUpAtNormalSize() {
    let view = Size(width: 1000, height: 800)
    let lifted = ScreenGeometry.clampOffset(Size(width: 0, height: -250), zoom: 1, view: view, covered: 300)
    #expect(lifted == Size(width: 0, height: -250))
    let closed = ScreenGeometry.clampOffset(lifted, zoom: 1, view: view, covered: 0)
    #expect(closed == .zero)
}

@Test func coveredAddsToZoomedRange() {
    let view = Size(width: 1000, height: 800)
    let got = ScreenGeometry.clampOffset(Size(width: -900, height: -2000), zoom: 2, view: view, covered: 120)
    #expect(got == Size(width: -500, height: -520))
}

@Test func letterboxedVideoIsCentred() {
    let rect = ScreenGeometry.videoRect(video: Size(width: 3440, height: 1440), in: Size(width: 1000, height: 750))
    #expect(RuleFixture.close(rect.width, 1000))
    #expect(RuleFixture.close(rect.height, 1000 * 1440 / 3440))
    #expect(RuleFixture.close(rect.minY, (750 - rect.height) / 2))
    #expect(ScreenGeometry.normalized(touch: Point(x: 1, y: 1), view: Size(width: 10, height: 10), video: .zero) == nil)
}
