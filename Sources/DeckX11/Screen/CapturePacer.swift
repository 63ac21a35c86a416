import DeckDesktop

/// When a capture loop grabs (DESIGN.md#state-machines): the damage waiting since the last frame, and at most one
/// frame per interval. The loop tells it what changed and asks when the next frame is due; the clock is passed
/// in (monotonic nanoseconds), so the rule is tested without a display or sleeps.
struct CapturePacer {
    /// The whole frame, monitor-relative; damage is clamped to it.
    let bounds: PixelRect
    /// Nanoseconds between two frames at least.
    private(set) var interval: UInt64
    private var damage: [PixelRect] = []
    private var lastFrame: UInt64?

    /// More rectangles than this are sent as their bounding box: the encoder gains nothing from a long list.
    static let mostRectangles = 16

    /// A pacer for a `width`×`height` frame at `fps`; the first frame (the whole of it) is due at once.
    init(width: Int, height: Int, fps: Int) {
        bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        interval = Self.interval(fps: fps)
        damage = [bounds]
    }

    private static func interval(fps: Int) -> UInt64 { 1_000_000_000 / UInt64(max(1, fps)) }

    /// From now on at most `fps` frames per second (at least one).
    mutating func setFPS(_ fps: Int) { interval = Self.interval(fps: fps) }

    /// Notes a changed rectangle (monitor-relative); the part outside the frame is dropped.
    mutating func damaged(_ rect: PixelRect) {
        let inside = rect.clamped(to: bounds)
        guard !inside.isEmpty, !damage.contains(where: { $0.contains(inside) }) else { return }
        damage.removeAll { inside.contains($0) }
        damage.append(inside)
        if damage.count > Self.mostRectangles { damage = [damage.dropFirst().reduce(damage[0]) { $0.union($1) }] }
    }

    /// Asks for the whole frame with the next grab (`refresh()`).
    mutating func refresh() { damaged(bounds) }

    /// When the next frame may be grabbed, in the clock's nanoseconds; nil while nothing is waiting.
    func dueAt() -> UInt64? {
        guard !damage.isEmpty else { return nil }
        guard let lastFrame else { return 0 }
        return lastFrame + interval
    }

    /// The damage to grab now, if a frame is due at `now`; the pacer then counts it as sent.
    mutating func takeFrame(now: UInt64) -> [PixelRect]? {
        guard let due = dueAt(), due <= now else { return nil }
        defer { damage = [] }
        lastFrame = now
        return damage
    }
}

extension PixelRect {
    /// Whether every pixel of `other` is inside `self` (an empty `other` is inside anything).
    func contains(_ other: PixelRect) -> Bool {
        other.isEmpty
            || (other.x >= x && other.y >= y && other.x + other.width <= x + width
                && other.y + other.height <= y + height)
    }

    /// The smallest rectangle covering both.
    func union(_ other: PixelRect) -> PixelRect {
        let left = min(x, other.x)
        let top = min(y, other.y)
        let right = max(x + width, other.x + other.width)
        let bottom = max(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
