import Foundation
import Testing

@testable import DeckKit

/// Screen geometry, pointer plans and stream rates fed extreme and non-finite values.
@Suite struct GeometryFuzzTests {
    static let ints = [
        Int.min, Int.min + 1, -3840, -1, 0, 1, 2, 3, 319, 320, 1919, 1920, 3840, 3841, Int(Int32.max), Int.max - 1,
        Int.max,
    ]
    static let doubles: [Double] = [
        .nan, .infinity, -.infinity, 0, -0.0, 1, -1, 0.5, 1e-300, -1e-300, 1e300, -1e300, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 1920, 1080,
    ]

    func double(_ rng: inout FuzzRNG) -> Double {
        rng.chance(60) ? rng.pick(Self.doubles) : Double(bitPattern: rng.next())
    }

    @Test func fitGivesEvenSizesForAnyNumbers() {
        var rng = FuzzRNG(seed: 0x5EED_0301)
        for _ in 0..<20_000 {
            let (width, height, side) = (rng.pick(Self.ints), rng.pick(Self.ints), rng.pick(Self.ints))
            let size = ScreenGeometry.fit(width: width, height: height, maxSide: side)
            #expect(size.width >= 2 && size.width % 2 == 0 && size.height >= 2 && size.height % 2 == 0)
            if width >= 2 && height >= 2 {
                #expect(size.width <= width && size.height <= height, "\(width)×\(height) asking \(side)")
            }
        }
    }

    /// A plausible number of points half the time (so many touches land), anything at all otherwise.
    func coordinate(_ rng: inout FuzzRNG, sane: Bool) -> Double {
        sane ? Double(rng.below(400_000)) / 100 - 500 : double(&rng)
    }

    @Test func touchMappingNeverTrapsAndStaysInsideTheVideo() {
        var rng = FuzzRNG(seed: 0x5EED_0302)
        var landed = 0
        for i in 0..<20_000 {
            let sane = rng.chance(50)
            let view = Size(width: coordinate(&rng, sane: sane), height: coordinate(&rng, sane: sane))
            let video = Size(width: coordinate(&rng, sane: sane), height: coordinate(&rng, sane: sane))
            let touch = Point(x: coordinate(&rng, sane: sane), y: coordinate(&rng, sane: sane))
            let offset = Size(width: coordinate(&rng, sane: sane) / 10, height: coordinate(&rng, sane: sane) / 10)
            let zoom = sane ? 0.5 + Double(rng.below(500)) / 100 : double(&rng)
            let point = ScreenGeometry.normalized(touch: touch, view: view, video: video, zoom: zoom, offset: offset)
            _ = ScreenGeometry.clampOffset(offset, zoom: zoom, view: view, covered: double(&rng))
            guard let point, sane else { continue }
            landed += 1
            #expect((-1e-9...(1 + 1e-9)).contains(point.x) && (-1e-9...(1 + 1e-9)).contains(point.y), "#\(i)")
        }
        #expect(landed > 500)
    }

    @Test func pointerStepsLandOnTheDisplayWhateverTheEvent() {
        var rng = FuzzRNG(seed: 0x5EED_0303)
        for i in 0..<400 {
            // One display per plan: a button held on one monitor is let go where it was held.
            let display = Rect(
                x: Double(rng.below(8000) - 4000), y: Double(rng.below(8000) - 4000),
                width: Double(1 + rng.below(8000)), height: Double(1 + rng.below(8000)))
            var plan = PointerPlan()
            for _ in 0..<50 {
                for step in plan.steps(for: randomEvent(&rng), display: display, now: double(&rng)) {
                    #expect(Self.lands(step, on: display), "#\(i): \(step) outside \(display)")
                }
            }
            _ = plan.release()
            #expect(!plan.isHolding)
        }
    }

    func randomEvent(_ rng: inout FuzzRNG) -> DeviceMessage.Pointer {
        let kind = rng.pick(DeviceMessage.Pointer.Kind.allCases)
        var event = DeviceMessage.Pointer(
            kind: kind, x: double(&rng), y: double(&rng), dx: double(&rng), dy: double(&rng))
        // The fields are settable after init; the plan must not trust that they were clamped.
        if rng.chance(30) { event.x = double(&rng) }
        if rng.chance(30) { event.y = double(&rng) }
        return event
    }

    static func lands(_ step: PointerPlan.Step, on display: Rect) -> Bool {
        let inside = { (p: Point) in
            p.x >= display.minX && p.x <= display.maxX - 1 && p.y >= display.minY && p.y <= display.maxY - 1
        }
        switch step {
        case .move(let p), .leftDragged(let p), .rightDown(let p), .rightUp(let p): return inside(p)
        case .leftDown(let p, let clicks), .leftUp(let p, let clicks): return inside(p) && (1...3).contains(clicks)
        case .scroll(let dx, let dy): return !dx.isNaN && !dy.isNaN
        }
    }

    @Test func bitrateOfAnySizeAndRateIsWithinTheCap() {
        for width in Self.ints {
            for height in Self.ints {
                for fps in [Int.min, -1, 0, 1, 30, 60, Int.max] {
                    let rate = StreamRate.bitrate(width: width, height: height, fps: fps)
                    #expect((0...StreamRate.maxBitrate).contains(rate), "\(width)×\(height)@\(fps)")
                }
            }
        }
    }

    /// The exact input that trapped: the budget (≈3.4e56 bit/s) was converted to Int before the cap.
    @Test func bitrateOfTheLargestSizesDoesNotTrap() {
        #expect(StreamRate.bitrate(width: Int.max, height: Int.max, fps: Int.max) == StreamRate.maxBitrate)
    }
}
