import DeckKit
import Testing

/// 1024 px wide so that k/1024 lands exactly on pixel k.
private let display = Rect(x: 0, y: 0, width: 1024, height: 1024)

private func event(_ kind: DeviceMessage.Pointer.Kind, _ x: Double, _ y: Double, dx: Double = 0, dy: Double = 0)
    -> DeviceMessage.Pointer
{
    DeviceMessage.Pointer(kind: kind, x: x / 1024, y: y / 1024, dx: dx, dy: dy)
}

private func pt(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

@Test func clickMovesPressesAndReleases() {
    var plan = PointerPlan()
    let steps = plan.steps(for: event(.click, 100, 200), display: display, now: 10)
    #expect(steps == [.move(pt(100, 200)), .leftDown(pt(100, 200), clicks: 1), .leftUp(pt(100, 200), clicks: 1)])
    #expect(!plan.isHolding)
}

@Test func quickClicksCountUpToTripleThenStartOver() {
    var plan = PointerPlan()
    var counts: [Int] = []
    for (i, x) in [100.0, 104, 108, 100].enumerated() {
        let steps = plan.steps(for: event(.click, x, 200), display: display, now: 10 + Double(i) * 0.5)
        if case .leftDown(_, let clicks) = steps[1] { counts.append(clicks) }
    }
    #expect(counts == [1, 2, 3, 1])
}

@Test func slowSecondClickIsSingle() {
    var plan = PointerPlan()
    _ = plan.steps(for: event(.click, 100, 200), display: display, now: 10)
    let steps = plan.steps(for: event(.click, 100, 200), display: display, now: 10.51)
    #expect(steps[1] == .leftDown(pt(100, 200), clicks: 1))
}

@Test func distantSecondClickIsSingle() {
    var plan = PointerPlan()
    _ = plan.steps(for: event(.click, 100, 200), display: display, now: 10)
    let near = plan.steps(for: event(.click, 100, 208), display: display, now: 10.1)
    #expect(near[1] == .leftDown(pt(100, 208), clicks: 2))
    let far = plan.steps(for: event(.click, 106, 215), display: display, now: 10.2)
    #expect(far[1] == .leftDown(pt(106, 215), clicks: 1))
}

@Test func rightClickPressesTheRightButtonAndBreaksTheSeries() {
    var plan = PointerPlan()
    _ = plan.steps(for: event(.click, 100, 200), display: display, now: 10)
    let right = plan.steps(for: event(.rightClick, 100, 200), display: display, now: 10.1)
    #expect(right == [.move(pt(100, 200)), .rightDown(pt(100, 200)), .rightUp(pt(100, 200))])
    let again = plan.steps(for: event(.click, 100, 200), display: display, now: 10.2)
    #expect(again[1] == .leftDown(pt(100, 200), clicks: 1))
}

@Test func scrollMovesThereFirst() {
    var plan = PointerPlan()
    let steps = plan.steps(for: event(.scroll, 300, 400, dx: -2.5, dy: 40), display: display, now: 1)
    #expect(steps == [.move(pt(300, 400)), .scroll(dx: -2.5, dy: 40)])
}

@Test func holdThenDragPressesDragsAndReleases() {
    var plan = PointerPlan()
    var steps = plan.steps(for: event(.down, 10, 10), display: display, now: 1)
    #expect(steps == [.move(pt(10, 10)), .leftDown(pt(10, 10), clicks: 1)])
    #expect(plan.isHolding)
    steps = plan.steps(for: event(.move, 50, 60), display: display, now: 1.1)
    #expect(steps == [.leftDragged(pt(50, 60))])
    steps = plan.steps(for: event(.up, 70, 80), display: display, now: 1.2)
    #expect(steps == [.leftDragged(pt(70, 80)), .leftUp(pt(70, 80), clicks: 1)])
    #expect(!plan.isHolding)
    // nothing is held any more: a move is a plain move and a stray up does nothing
    #expect(plan.steps(for: event(.move, 5, 5), display: display, now: 1.3) == [.move(pt(5, 5))])
    #expect(plan.steps(for: event(.up, 5, 5), display: display, now: 1.4) == [])
}

@Test func releaseLiftsAHeldButtonOnce() {
    var plan = PointerPlan()
    #expect(plan.release() == [])
    _ = plan.steps(for: event(.down, 10, 10), display: display, now: 1)
    _ = plan.steps(for: event(.move, 20, 30), display: display, now: 1.1)
    #expect(plan.release() == [.leftUp(pt(20, 30), clicks: 1)])
    #expect(plan.release() == [])
}

@Test func newPressWhileHeldReleasesTheOldOneFirst() {
    var plan = PointerPlan()
    _ = plan.steps(for: event(.down, 10, 10), display: display, now: 1)
    let steps = plan.steps(for: event(.click, 40, 40), display: display, now: 2)
    #expect(steps.first == .leftUp(pt(10, 10), clicks: 1))
    #expect(steps.count == 4)
    #expect(!plan.isHolding)
}

@Test func pointsLandOnTheViewedMonitor() {
    var plan = PointerPlan()
    let left = Rect(x: -1512, y: 200, width: 1512, height: 982)
    let steps = plan.steps(for: DeviceMessage.Pointer(kind: .click, x: 1, y: 1), display: left, now: 0)
    #expect(steps.first == .move(pt(-1, 1181)))
}

@Test func doubleClickLimitsMatchTheSeed() {
    #expect(PointerPlan.doubleClickInterval == 0.5)
    #expect(PointerPlan.doubleClickDistance == 8)
}
