/// Flow control for media sent to one viewer (DESIGN.md#viewing, #sound).
///
/// At most `limit` packets may be in flight. A video delta frame refers to the frame before it, so once
/// one is dropped every later delta would decode into garbage: the gate drops everything until the next
/// keyframe and asks the encoder for exactly one keyframe per drop episode. Audio uses its own gate with
/// every packet passed as a keyframe, and ignores the keyframe request.
public struct SendGate: Hashable, Sendable {
    /// Audio packets allowed in flight.
    public static let audioLimit = 10

    /// Packets allowed in flight. Changing it (an fps change while streaming) keeps the in-flight count,
    /// so frames still on the wire are not forgotten.
    public var limit: Int
    /// Packets begun and not yet finished.
    public private(set) var inFlight = 0
    /// True from the first drop until a keyframe gets through.
    public private(set) var isWaitingForKeyframe = false
    private var keyframeRequested = false

    /// A gate allowing `limit` packets in flight.
    public init(limit: Int) { self.limit = limit }

    /// A gate for video at `fps` frames per second.
    public init(fps: Int) { self.init(limit: Self.limit(forFPS: fps)) }

    /// The same time on the wire at any rate: 30 fps → 2 frames, 60 fps → 4 (both about 67 ms).
    public static func limit(forFPS fps: Int) -> Int { max(1, fps / 15) }

    /// Whether this packet may be sent now; if so it counts as in flight until `finish()`.
    public mutating func begin(keyframe isKeyframe: Bool) -> Bool {
        if isWaitingForKeyframe && !isKeyframe { return false }
        guard inFlight < limit else {
            // A dropped keyframe was the one that would have ended the episode, so it asks again.
            if !isWaitingForKeyframe || isKeyframe { keyframeRequested = true }
            isWaitingForKeyframe = true
            return false
        }
        if isKeyframe { isWaitingForKeyframe = false }
        inFlight += 1
        return true
    }

    /// One packet left the connection (call from the send-completion path).
    public mutating func finish() { inFlight = max(0, inFlight - 1) }

    /// Whether to ask the encoder for a keyframe now; reading it clears it.
    public mutating func claimKeyframeRequest() -> Bool {
        defer { keyframeRequested = false }
        return keyframeRequested
    }
}
