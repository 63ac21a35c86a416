/// When the next safety keyframe is due, counted in time, not frames (PROTOCOL §6 "Recording", §7): a still
/// screen sends a frame or two a second, so "every 30 frames" would mean every 15 s. A frame at most half a
/// frame early still counts as on time, so at 30 fps the keyframes land at 1.0 s, not at 1.033 s.
///
/// Times are microseconds on any one clock the owner keeps to (the capture clock, or the encoder's own).
public struct KeyframeClock: Hashable, Sendable {
    /// Microseconds between two keyframes at most.
    public let intervalMicros: UInt64
    /// How early a frame may come and still be taken as due.
    public private(set) var slackMicros: UInt64
    /// When the last keyframe was (nil: none yet, so the first frame is one).
    public private(set) var lastKeyframe: UInt64?

    public init(intervalMicros: UInt64, fps: Int) {
        self.intervalMicros = intervalMicros
        slackMicros = Self.slack(fps: fps)
    }

    /// A clock that takes a frame `slackMicros` early as due (a recording asks for its keyframe's picture that
    /// much ahead, so each second's fragment is on disk before the second is over).
    public init(intervalMicros: UInt64, slackMicros: UInt64) {
        self.intervalMicros = intervalMicros
        self.slackMicros = min(slackMicros, intervalMicros)
    }

    private static func slack(fps: Int) -> UInt64 { 500_000 / UInt64(max(1, fps)) }

    /// A new frame rate changes the slack only.
    public mutating func setFPS(_ fps: Int) { slackMicros = Self.slack(fps: fps) }

    /// When a keyframe is next due; nil before the first.
    public var dueAt: UInt64? { lastKeyframe.map { $0 + intervalMicros - min(slackMicros, intervalMicros) } }

    /// Whether a frame at `micros` must be a keyframe for the interval's sake.
    public func isDue(at micros: UInt64) -> Bool {
        guard let dueAt else { return true }
        return micros >= dueAt
    }

    /// A keyframe went out at `micros`.
    public mutating func keyframe(at micros: UInt64) { lastKeyframe = micros }
}
