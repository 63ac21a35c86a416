import Foundation

/// Turns `pointer` messages into the mouse actions the host performs, in order.
///
/// The plan only decides; the host's input layer performs the steps. Keeping the decision here makes
/// click counting and the held-button rule testable without an X server.
public struct PointerPlan: Sendable {
    /// One mouse action at a desktop pixel.
    public enum Step: Equatable, Sendable {
        case move(Point)
        /// `clicks` is the click count of this press (1, 2 = double, 3 = triple).
        case leftDown(Point, clicks: Int)
        case leftDragged(Point)
        case leftUp(Point, clicks: Int)
        case rightDown(Point)
        case rightUp(Point)
        case scroll(dx: Double, dy: Double)
    }

    /// A click this soon (seconds) after the previous one continues its series.
    public static let doubleClickInterval: TimeInterval = 0.5
    /// …if it is also at most this far away, in host pixels.
    public static let doubleClickDistance = 8.0
    /// After a triple click the next click starts a new series.
    public static let maxClicks = 3

    private var lastClick: (point: Point, time: TimeInterval, count: Int)?
    private var held: Point?

    public init() {}

    /// Whether the left button is down on the host (a drag is in progress).
    public var isHolding: Bool { held != nil }

    /// The steps for one `pointer` message.
    ///
    /// - Parameters:
    ///   - display: the viewed monitor's rectangle on the host's desktop, in pixels.
    ///   - now: seconds on any monotonic clock; only differences matter.
    public mutating func steps(for event: DeviceMessage.Pointer, display: Rect, now: TimeInterval) -> [Step] {
        let point = ScreenGeometry.global(normalized: Point(x: event.x, y: event.y), display: display)
        switch event.kind {
        case .click:
            return release() + click(at: point, now: now)
        case .rightClick:
            lastClick = nil
            return release() + [.move(point), .rightDown(point), .rightUp(point)]
        case .scroll:
            return [reach(point), .scroll(dx: event.dx, dy: event.dy)]
        case .down:
            lastClick = nil
            let before = release()
            held = point
            return before + [.move(point), .leftDown(point, clicks: 1)]
        case .move:
            return [reach(point)]
        case .up:
            return finishDrag(at: point)
        }
    }

    /// The step that lifts a held button, if any. Call it whenever viewing ends, for any reason, so the
    /// host's button is never left down.
    public mutating func release() -> [Step] {
        guard let point = held else { return [] }
        held = nil
        return [.leftUp(point, clicks: 1)]
    }

    private mutating func click(at point: Point, now: TimeInterval) -> [Step] {
        let count = clickCount(at: point, now: now)
        lastClick = (point, now, count)
        return [.move(point), .leftDown(point, clicks: count), .leftUp(point, clicks: count)]
    }

    private func clickCount(at point: Point, now: TimeInterval) -> Int {
        guard let last = lastClick else { return 1 }
        let elapsed = now - last.time
        let dx = point.x - last.point.x
        let dy = point.y - last.point.y
        let distance = (dx * dx + dy * dy).squareRoot()
        let continues = elapsed >= 0 && elapsed <= Self.doubleClickInterval && distance <= Self.doubleClickDistance
        return continues ? last.count % Self.maxClicks + 1 : 1
    }

    /// Moving with the button held is a drag; without it, a plain move.
    private mutating func reach(_ point: Point) -> Step {
        guard held != nil else { return .move(point) }
        held = point
        return .leftDragged(point)
    }

    private mutating func finishDrag(at point: Point) -> [Step] {
        guard let from = held else { return [] }
        held = nil
        let drag: [Step] = from == point ? [] : [.leftDragged(point)]
        return drag + [.leftUp(point, clicks: 1)]
    }
}
