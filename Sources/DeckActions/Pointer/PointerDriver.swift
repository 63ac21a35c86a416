import DeckDesktop
import DeckKit
import Foundation

/// Turns one viewing session's `pointer` messages into `InputSink` calls on the viewed monitor.
///
/// A plain value (DESIGN.md#state-machines): it never sleeps and never touches the desktop. Each call returns the
/// actions to perform now and, when a move was held back by the 60-per-second limit, the time at which
/// the owner should call `wake(now:)` so that move (always the newest) is applied.
/// Click counting and the held-button rule come from DeckKit's `PointerPlan`.
public struct PointerDriver: Sendable {
    /// The shortest time between two applied moves: at most 60 moves per second reach the desktop.
    public static let moveInterval: TimeInterval = 1.0 / 60

    /// What to do after a message or a wake-up.
    public struct Output: Equatable, Sendable {
        /// Perform these now, in order.
        public var actions: [InputAction]
        /// Call `wake(now:)` at (or after) this time; nil when nothing waits. Repeated while a move waits.
        public var wakeAt: TimeInterval?

        public init(actions: [InputAction], wakeAt: TimeInterval? = nil) {
            self.actions = actions
            self.wakeAt = wakeAt
        }
    }

    /// The viewed monitor's rectangle on the desktop, in pixels.
    public let monitor: Rect
    private var plan = PointerPlan()
    private var wheelX = WheelAccumulator()
    private var wheelY = WheelAccumulator()
    /// Where the click series that is going on started: its later clicks land there too.
    private var seriesStart: Point?
    /// The newest move not yet applied.
    private var waitingMove: Point?
    /// The earliest time the next move may be applied.
    private var nextMoveAt = -Double.infinity

    /// A driver for the monitor at `monitor` (desktop pixels; width and height at least 1).
    public init(monitor: Rect) {
        precondition(monitor.width >= 1 && monitor.height >= 1, "a monitor has at least one pixel")
        self.monitor = monitor
    }

    /// Whether a button is held down on the desktop (a drag is going on).
    public var isHolding: Bool { plan.isHolding }

    /// The actions for one `pointer` message received at `now` (seconds on a monotonic clock).
    public mutating func receive(_ event: DeviceMessage.Pointer, now: TimeInterval) -> Output {
        if event.kind == .move { return move(event, now: now) }
        // Anything else first applies a move still waiting, so a drag ends where the finger last was.
        let before = flushWaitingMove(now: now)
        switch event.kind {
        case .click: return Output(actions: before + click(event, now: now))
        case .scroll: return Output(actions: before + scroll(event, now: now))
        default: return Output(actions: before + translate(plan.steps(for: event, display: monitor, now: now)))
        }
    }

    /// Applies the move that waited for the rate limit, once its time has come.
    public mutating func wake(now: TimeInterval) -> Output {
        guard waitingMove != nil else { return Output(actions: []) }
        guard now >= nextMoveAt else { return Output(actions: [], wakeAt: nextMoveAt) }
        return Output(actions: flushWaitingMove(now: now))
    }

    /// Releases a held button, once; the one stop path calls it whenever viewing ends. A move still
    /// waiting is dropped: nothing more of this session reaches the desktop.
    public mutating func releaseAll() -> [InputAction] {
        waitingMove = nil
        return translate(plan.release())
    }

    private mutating func move(_ event: DeviceMessage.Pointer, now: TimeInterval) -> Output {
        // The plan follows every move (a later `up` compares against it); only the desktop is rate-limited.
        let steps = plan.steps(for: event, display: monitor, now: now)
        switch steps.first {
        case .move(let point)?, .leftDragged(let point)?: waitingMove = point
        default: return Output(actions: translate(steps))
        }
        guard now >= nextMoveAt else { return Output(actions: [], wakeAt: nextMoveAt) }
        return Output(actions: flushWaitingMove(now: now))
    }

    private mutating func flushWaitingMove(now: TimeInterval) -> [InputAction] {
        guard let point = waitingMove else { return [] }
        waitingMove = nil
        nextMoveAt = now + Self.moveInterval
        return [.move(pixel(point))]
    }

    /// X has no click count of its own: toolkits count a second press as a double click only when it comes
    /// soon enough and (GTK: within 5 px) at nearly the same place, so the later clicks of a series
    /// (0.5 s, 8 px, per `PointerPlan`) are put exactly where the series started.
    private mutating func click(_ event: DeviceMessage.Pointer, now: TimeInterval) -> [InputAction] {
        let steps = plan.steps(for: event, display: monitor, now: now)
        let clicks = steps.lazy.compactMap { step -> (Point, Int)? in
            if case .leftDown(let point, let clicks) = step { return (point, clicks) }
            return nil
        }.first
        guard let (point, count) = clicks else { return translate(steps) }
        let target = count > 1 ? (seriesStart ?? point) : point
        seriesStart = target
        return translate(
            steps.map { step in
                if case .move = step { return .move(target) }
                return step
            })
    }

    private mutating func scroll(_ event: DeviceMessage.Pointer, now: TimeInterval) -> [InputAction] {
        let steps = plan.steps(for: event, display: monitor, now: now).filter { step in
            if case .scroll = step { return false }
            return true
        }
        return translate(steps) + wheel(dx: event.dx, dy: event.dy)
    }

    /// `dx`/`dy` are the finger's travel in monitor pixels, and the content follows the finger: a finger
    /// moving down (dy > 0) shows what is above, like turning the wheel up.
    private mutating func wheel(dx: Double, dy: Double) -> [InputAction] {
        let vertical = wheelY.add(dy)
        let horizontal = wheelX.add(dx)
        var actions: [InputAction] = []
        if vertical != 0 { actions.append(.scroll(vertical > 0 ? .up : .down, steps: abs(vertical))) }
        if horizontal != 0 { actions.append(.scroll(horizontal > 0 ? .left : .right, steps: abs(horizontal))) }
        return actions
    }

    private func translate(_ steps: [PointerPlan.Step]) -> [InputAction] {
        steps.compactMap { step in
            switch step {
            case .move(let point), .leftDragged(let point): .move(pixel(point))
            case .leftDown: .button(.left, pressed: true)
            case .leftUp: .button(.left, pressed: false)
            case .rightDown: .button(.right, pressed: true)
            case .rightUp: .button(.right, pressed: false)
            // Scroll amounts go through the wheel accumulators, never straight to the desktop.
            case .scroll: nil
            }
        }
    }

    /// A desktop point from `PointerPlan` (already inside the monitor) → the monitor's own pixel.
    private func pixel(_ point: Point) -> MonitorPixel {
        MonitorPixel(x: Int(point.x - monitor.minX), y: Int(point.y - monitor.minY), monitor: monitor)
    }
}
