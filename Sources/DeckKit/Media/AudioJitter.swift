/// The device's audio jitter buffer rule (DESIGN.md#sound).
///
/// Packets arrive unevenly over Wi-Fi. Playback starts once 60 ms is queued; above 200 ms new packets
/// are dropped until the queue falls below 100 ms, so sound never drifts far behind the picture.
public struct AudioJitter: Hashable, Sendable {
    /// What to do with an arriving packet.
    public enum Decision: Hashable, Sendable {
        /// Queue it behind what is playing (or waiting to start).
        case queue
        /// Queue it and start playback: enough is queued now.
        case queueAndStart
        /// Drop it: too much is queued.
        case drop
    }

    /// Seconds queued before playback starts.
    public static let startAt = 0.06
    /// Above this many seconds queued, new packets are dropped.
    public static let dropAbove = 0.2
    /// Dropping stops once fewer seconds than this are queued.
    public static let resumeBelow = 0.1
    /// Ten 0.02 s packets sum to 0.19999999999999998, not 0.2; bounds are compared with this slack so the
    /// decision does not depend on the order of the additions.
    public static let tolerance = 1e-9

    /// Seconds queued and not yet played.
    public private(set) var queued = 0.0
    /// Whether playback is running.
    public private(set) var isPlaying = false
    /// Whether new packets are being dropped.
    public private(set) var isDropping = false

    /// An empty buffer, not playing.
    public init() {}

    /// Decides about a packet of `seconds` of sound.
    public mutating func arrive(_ seconds: Double) -> Decision {
        if isDropping {
            guard queued < Self.resumeBelow - Self.tolerance else { return .drop }
            isDropping = false
        }
        if queued + seconds > Self.dropAbove + Self.tolerance {
            isDropping = true
            return .drop
        }
        queued += seconds
        guard !isPlaying, queued >= Self.startAt - Self.tolerance else { return .queue }
        isPlaying = true
        return .queueAndStart
    }

    /// A packet of `seconds` finished playing. Returns true when the queue ran dry: pause, and wait
    /// for 60 ms again before resuming.
    public mutating func played(_ seconds: Double) -> Bool {
        queued = max(0, queued - seconds)
        guard queued <= Self.tolerance else { return false }
        queued = 0
        let wasPlaying = isPlaying
        isPlaying = false
        return wasPlaying
    }

    /// Forgets everything queued (the player was rebuilt or viewing ended).
    public mutating func reset() { self = AudioJitter() }
}
