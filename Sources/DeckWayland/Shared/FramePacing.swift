/// When a compositor's frame is handed on (DESIGN.md#state-machines): Mutter sends a buffer whenever the monitor
/// changed; the newest one is held, and handed on at once or, when the last one went less than an interval ago, when
/// the interval is over — so the last change of a burst is never lost and at most `fps` frames a second go out. The
/// clock (monotonic nanoseconds) is passed in.
struct FramePacing: Equatable {
    /// What the stream does now.
    enum Step: Equatable {
        /// Hand the held frame on.
        case deliver
        /// Wake up this many nanoseconds from now and ask again.
        case wait(UInt64)
        /// Nothing is waiting.
        case idle
    }

    private(set) var interval: UInt64
    private var lastDelivery: UInt64?
    /// A held frame has not been handed on yet (a new buffer came, or `refresh` asked for it again).
    private(set) var pending = false

    init(fps: Int) { interval = Self.interval(fps: fps) }

    private static func interval(fps: Int) -> UInt64 { 1_000_000_000 / UInt64(max(1, fps)) }

    mutating func setFPS(_ fps: Int) { interval = Self.interval(fps: fps) }

    /// A new buffer replaced the held one, or a refresh wants the held one again.
    mutating func frameWaiting() { pending = true }

    /// What to do at `now`; `.deliver` counts the frame as handed on.
    mutating func step(now: UInt64) -> Step {
        guard pending else { return .idle }
        if let lastDelivery, now < lastDelivery + interval { return .wait(lastDelivery + interval - now) }
        pending = false
        lastDelivery = now
        return .deliver
    }
}
