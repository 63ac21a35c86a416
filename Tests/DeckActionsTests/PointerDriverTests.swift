import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckActions

/// The whole 1920×1080 monitor of the live tests.
private let full = Rect(x: 0, y: 0, width: 1920, height: 1080)
/// A second monitor right of a 1920 px one, 1 px smaller each way so edge cases do not round to it.
private let side = Rect(x: 1920, y: -200, width: 1279, height: 719)

private func pointer(_ kind: DeviceMessage.Pointer.Kind, _ x: Double, _ y: Double, dx: Double = 0, dy: Double = 0)
    -> DeviceMessage.Pointer
{
    DeviceMessage.Pointer(kind: kind, x: x, y: y, dx: dx, dy: dy)
}

private func at(_ x: Int, _ y: Int, on monitor: Rect = full) -> InputAction {
    .move(MonitorPixel(x: x, y: y, monitor: monitor))
}

private let leftDown = InputAction.button(.left, pressed: true)
private let leftUp = InputAction.button(.left, pressed: false)

/// Collects what the fake sink is asked to do.
private final class SinkLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [InputAction] = []
    var actions: [InputAction] { lock.withLock { recorded } }
    lazy var sink = InputSink.fake { [unowned self] action in lock.withLock { recorded.append(action) } }
}

/// Plays the owner: performs what the driver says on a fake sink and keeps the one wake-up timer it asks for.
private struct Owner {
    var driver: PointerDriver
    let log = SinkLog()
    /// Every action performed, with the time it was performed at.
    private(set) var timeline: [(time: TimeInterval, action: InputAction)] = []
    private var timer: TimeInterval?

    init(monitor: Rect = full) { driver = PointerDriver(monitor: monitor) }

    /// Fires a timer that falls due before `now`, then hands the message over at `now`.
    mutating func send(_ event: DeviceMessage.Pointer, at now: TimeInterval) async throws {
        try await advance(to: now)
        try await apply(driver.receive(event, now: now), at: now)
    }

    mutating func advance(to now: TimeInterval) async throws {
        while let due = timer, due <= now {
            timer = nil
            try await apply(driver.wake(now: due), at: due)
        }
    }

    mutating func stop() async throws {
        timer = nil
        try await log.sink.perform(driver.releaseAll())
    }

    private mutating func apply(_ output: PointerDriver.Output, at now: TimeInterval) async throws {
        try await log.sink.perform(output.actions)
        timeline += output.actions.map { (now, $0) }
        if let wake = output.wakeAt { timer = wake }
    }
}

@Suite struct PointerMappingTests {
    @Test func quarterAndThreeQuartersLandOnTheirPixel() {
        var driver = PointerDriver(monitor: full)
        let output = driver.receive(pointer(.click, 0.25, 0.75), now: 0)
        #expect(output == .init(actions: [at(480, 810), leftDown, leftUp]))
    }

    @Test(arguments: [
        (0.0, 0.0, 0, 0), (1.0, 1.0, 1278, 718), (0.5, 0.5, 639, 359), (0.999, 0.0001, 1277, 0),
        (0.9999, 0.0001, 1278, 0),
        (-3.0, 7.0, 0, 718), (Double.nan, Double.infinity, 0, 718),
    ])
    func farEdgeIsTheLastPixelAndOutsideValuesClamp(x: Double, y: Double, pixelX: Int, pixelY: Int) {
        var driver = PointerDriver(monitor: side)
        let actions = driver.receive(pointer(.move, x, y), now: 0).actions
        #expect(actions == [at(pixelX, pixelY, on: side)])
    }

    @Test func monitorPixelsAddTheMonitorsOriginOnTheDesktop() {
        let last = MonitorPixel(x: 1278, y: 718, monitor: side)
        #expect((last.desktopX, last.desktopY) == (3198, 518))
        let left = MonitorPixel(x: 0, y: 0, monitor: Rect(x: -1280, y: 0, width: 1280, height: 1024))
        #expect((left.desktopX, left.desktopY) == (-1280, 0))
    }

    @Test func rightClickIsButtonThreeAtThePosition() {
        var driver = PointerDriver(monitor: full)
        let actions = driver.receive(pointer(.rightClick, 0.5, 0.5), now: 0).actions
        #expect(actions == [at(960, 540), .button(.right, pressed: true), .button(.right, pressed: false)])
    }
}

@Suite struct PointerClickTests {
    @Test func secondClickOfADoubleClickLandsWhereTheFirstDid() async throws {
        var owner = Owner()
        try await owner.send(pointer(.click, 0.25, 0.75), at: 10)
        // 5 px right and 3 px down, 0.3 s later: within 8 px and 0.5 s.
        try await owner.send(pointer(.click, 485.0 / 1920, 813.0 / 1080), at: 10.3)
        #expect(owner.log.actions == [at(480, 810), leftDown, leftUp, at(480, 810), leftDown, leftUp])
    }

    @Test func tripleClickStaysOnTheFirstClicksPixel() async throws {
        var owner = Owner()
        for (index, x) in [480.0, 484, 488].enumerated() {
            try await owner.send(pointer(.click, x / 1920, 0.75), at: 10 + Double(index) * 0.4)
        }
        let moves = owner.log.actions.filter { if case .move = $0 { true } else { false } }
        #expect(moves == [at(480, 810), at(480, 810), at(480, 810)])
    }

    @Test(arguments: [(0.51, 480.0), (0.3, 489.0)])
    func slowOrDistantSecondClickStaysWhereItWas(delay: Double, x: Double) async throws {
        var owner = Owner()
        try await owner.send(pointer(.click, 480.0 / 1920, 0.75), at: 10)
        try await owner.send(pointer(.click, x / 1920, 0.75), at: 10 + delay)
        #expect(owner.log.actions == [at(480, 810), leftDown, leftUp, at(Int(x), 810), leftDown, leftUp])
    }

    @Test func clickAfterASeriesEndsStartsANewOne() async throws {
        var owner = Owner()
        try await owner.send(pointer(.click, 480.0 / 1920, 0.75), at: 10)
        try await owner.send(pointer(.rightClick, 0.5, 0.5), at: 10.1)
        try await owner.send(pointer(.click, 484.0 / 1920, 0.75), at: 10.2)
        #expect(owner.log.actions.suffix(3) == [at(484, 810), leftDown, leftUp])
    }
}

@Suite struct PointerScrollTests {
    @Test func fingerDownScrollsUpAndTheRemainderCarriesOver() {
        var driver = PointerDriver(monitor: full)
        let here = at(960, 540)
        #expect(driver.receive(pointer(.scroll, 0.5, 0.5, dy: 30), now: 0).actions == [here])
        #expect(driver.receive(pointer(.scroll, 0.5, 0.5, dy: 30), now: 0.1).actions == [here, .scroll(.up, steps: 1)])
        // 10 px left over: 140 more make 150, three notches, nothing left.
        #expect(
            driver.receive(pointer(.scroll, 0.5, 0.5, dy: 140), now: 0.2).actions == [here, .scroll(.up, steps: 3)])
        #expect(driver.receive(pointer(.scroll, 0.5, 0.5, dy: -49), now: 0.3).actions == [here])
        #expect(
            driver.receive(pointer(.scroll, 0.5, 0.5, dy: -2), now: 0.4).actions == [here, .scroll(.down, steps: 1)])
    }

    @Test func horizontalTravelTurnsTheSideWheelSeparately() {
        var driver = PointerDriver(monitor: full)
        let first = driver.receive(pointer(.scroll, 0.5, 0.5, dx: 120, dy: 20), now: 0).actions
        #expect(first == [at(960, 540), .scroll(.left, steps: 2)])
        let second = driver.receive(pointer(.scroll, 0.5, 0.5, dx: -190, dy: 30), now: 0.1).actions
        #expect(second == [at(960, 540), .scroll(.up, steps: 1), .scroll(.right, steps: 3)])
    }

    @Test func wheelAccumulatorKeepsTheSignedRemainder() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(-120) == -2)
        #expect(wheel.remainder == -20)
        #expect(wheel.add(80) == 1)
        #expect(wheel.remainder == 10)
        #expect(wheel.add(.infinity) == 0)
        #expect(wheel.remainder == 10)
    }

    @Test func aHugeTravelIsCappedAndItsExcessDropped() {
        var driver = PointerDriver(monitor: full)
        let huge = driver.receive(pointer(.scroll, 0.5, 0.5, dy: -1e12), now: 0).actions
        #expect(huge == [at(960, 540), .scroll(.down, steps: WheelAccumulator.maxNotches)])
        #expect(driver.receive(pointer(.scroll, 0.5, 0.5, dy: 40), now: 0.1).actions == [at(960, 540)])
    }
}

@Suite struct PointerMoveRateTests {
    @Test func movesWithinAFrameWaitAndOnlyTheNewestIsApplied() {
        var driver = PointerDriver(monitor: full)
        #expect(driver.receive(pointer(.move, 0.1, 0.1), now: 1).actions == [at(192, 108)])
        let held = driver.receive(pointer(.move, 0.2, 0.2), now: 1.005)
        #expect(held == .init(actions: [], wakeAt: 1 + PointerDriver.moveInterval))
        #expect(driver.receive(pointer(.move, 0.3, 0.3), now: 1.010).wakeAt == 1 + PointerDriver.moveInterval)
        // Too early: nothing yet, same time again.
        #expect(driver.wake(now: 1.012) == .init(actions: [], wakeAt: 1 + PointerDriver.moveInterval))
        #expect(driver.wake(now: 1 + PointerDriver.moveInterval) == .init(actions: [at(576, 324)]))
        #expect(driver.wake(now: 1.5) == .init(actions: []))
    }

    @Test func aThousandMovesASecondReachTheDesktopSixtyTimesAndEndOnTheLast() async throws {
        var owner = Owner()
        for step in 0..<1000 {
            try await owner.send(pointer(.move, Double(step % 500) / 1000, 0.5), at: Double(step) / 1000)
        }
        try await owner.advance(to: 2)
        let applied = owner.timeline
        // 0, 1/60, …, 59/60 and the last one, held back from 0.999 to 1.0.
        #expect(applied.count == 61)
        // The last message (x = 0.499 → pixel 958) is the last applied move.
        #expect(applied.last?.action == at(958, 540))
        let gaps = zip(applied.dropFirst(), applied).map { $0.time - $1.time }
        #expect(gaps.allSatisfy { $0 >= PointerDriver.moveInterval - 1e-9 })
    }
}

@Suite struct PointerDragTests {
    @Test func dragPressesMovesAndReleasesInOrder() async throws {
        var owner = Owner()
        try await owner.send(pointer(.down, 0.1, 0.1), at: 0)
        try await owner.send(pointer(.move, 0.2, 0.2), at: 0.001)
        try await owner.send(pointer(.move, 0.3, 0.3), at: 0.002)  // waits for the rate limit
        try await owner.send(pointer(.up, 0.3, 0.3), at: 0.003)
        #expect(owner.log.actions == [at(192, 108), leftDown, at(384, 216), at(576, 324), leftUp])
        #expect(!owner.driver.isHolding)
    }

    @Test func upElsewhereMovesThereBeforeReleasing() async throws {
        var owner = Owner()
        try await owner.send(pointer(.down, 0.1, 0.1), at: 0)
        try await owner.send(pointer(.up, 0.5, 0.5), at: 1)
        #expect(owner.log.actions == [at(192, 108), leftDown, at(960, 540), leftUp])
    }

    @Test func releaseAllLetsGoOfAHeldButtonOnce() async throws {
        var owner = Owner()
        try await owner.send(pointer(.down, 0.1, 0.1), at: 0)
        try await owner.send(pointer(.move, 0.2, 0.2), at: 0.1)
        try await owner.send(pointer(.move, 0.3, 0.3), at: 0.101)  // still waiting when viewing ends
        try await owner.stop()
        try await owner.stop()
        #expect(owner.log.actions == [at(192, 108), leftDown, at(384, 216), leftUp])
        #expect(owner.driver.wake(now: 5) == .init(actions: []))
    }

    @Test func releaseAllWithNothingHeldDoesNothing() async throws {
        var owner = Owner()
        try await owner.send(pointer(.click, 0.1, 0.1), at: 0)
        try await owner.stop()
        #expect(owner.log.actions == [at(192, 108), leftDown, leftUp])
    }

    @Test func clickDuringADragReleasesFirst() async throws {
        var owner = Owner()
        try await owner.send(pointer(.down, 0.1, 0.1), at: 0)
        try await owner.send(pointer(.click, 0.5, 0.5), at: 1)
        #expect(owner.log.actions == [at(192, 108), leftDown, leftUp, at(960, 540), leftDown, leftUp])
    }
}

@Suite struct InputSinkSeamTests {
    @Test func fakeRecordsEveryOperationAsItsAction() async throws {
        let log = SinkLog()
        let pixel = MonitorPixel(x: 1, y: 2, monitor: full)
        let actions: [InputAction] = [
            .move(pixel), .button(.middle, pressed: true), .scroll(.right, steps: 2), .keysym(0xff0d),
        ]
        try await log.sink.perform(actions)
        #expect(log.actions == actions)
    }
}
