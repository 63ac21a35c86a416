import Foundation

/// One encoded video frame as it travels inside sealed binary (PROTOCOL §7):
/// `[codec][flags][capture µs, 8 BE][host µs, 4 BE]?[count][len 2 BE + SPS/PPS]×count?[Annex-B frame]`.
public struct VideoPacket: Hashable, Sendable {
    /// Codec byte for H.264, the only one so far; the byte leaves room for others.
    public static let h264: UInt8 = 1
    /// Flag bit: the frame is a keyframe and parameter sets follow.
    public static let keyframeFlag: UInt8 = 1 << 0
    /// Flag bit: capture and host processing times follow.
    public static let timingFlag: UInt8 = 1 << 1

    /// When the frame was captured and how long the host took, so the device can show latency.
    public struct Timing: Hashable, Sendable {
        /// Capture time, microseconds since the Unix epoch.
        public var captureMicros: UInt64
        /// Capture-to-send time on the host, microseconds.
        public var hostProcessingMicros: UInt32

        public init(captureMicros: UInt64, hostProcessingMicros: UInt32) {
            self.captureMicros = captureMicros
            self.hostProcessingMicros = hostProcessingMicros
        }
    }

    /// Whether the frame decodes on its own.
    public var keyframe: Bool
    /// Latency information, when the host measured it.
    public var timing: Timing?
    /// SPS and PPS (without start codes); carried on keyframes only.
    public var parameterSets: [Data]
    /// One H.264 Annex-B access unit.
    public var frame: Data

    /// A packet; parameter sets are kept only on keyframes (at most 255, each under 64 KiB).
    public init(keyframe: Bool, timing: Timing? = nil, parameterSets: [Data] = [], frame: Data) {
        precondition(parameterSets.count <= 255 && parameterSets.allSatisfy { $0.count <= 0xFFFF })
        self.keyframe = keyframe
        self.timing = timing
        self.parameterSets = keyframe ? parameterSets : []
        self.frame = frame
    }

    /// The packet bytes.
    public func encoded() -> Data {
        Self.header(keyframe: keyframe, timing: timing, parameterSets: parameterSets, frameSize: frame.count) + frame
    }

    /// Everything in front of the frame: the part the sender puts before an access unit it already holds
    /// (`WireBuffer.prepend`), so the frame itself is not copied again. `frameSize` is room to reserve.
    public static func header(keyframe: Bool, timing: Timing?, parameterSets: [Data], frameSize: Int = 0) -> Data {
        var out = Data(capacity: maxHeaderSize(keyframe: keyframe, parameterSets: parameterSets) + frameSize)
        let flags = (keyframe ? keyframeFlag : 0) | (timing == nil ? 0 : timingFlag)
        out.append(h264)
        out.append(flags)
        if let timing {
            out.appendBigEndian(timing.captureMicros)
            out.appendBigEndian(timing.hostProcessingMicros)
        }
        if keyframe {
            out.append(UInt8(parameterSets.count))
            for set in parameterSets {
                out.appendBigEndian(UInt16(set.count))
                out.append(set)
            }
        }
        return out
    }

    /// The longest header such a frame can have (timing included): 14 bytes for a delta frame, which `Data`
    /// keeps inline (no allocation).
    public static func maxHeaderSize(keyframe: Bool, parameterSets: [Data]) -> Int {
        14 + (keyframe ? parameterSets.reduce(1) { $0 + 2 + $1.count } : 0)
    }

    /// Reads a packet; nil when it is shorter than its header says, has no frame byte, or is not H.264.
    public init?(decoding data: Data) {
        var reader = ByteReader(data)
        guard reader.byte() == Self.h264, let flags = reader.byte() else { return nil }
        var timing: Timing?
        if flags & Self.timingFlag != 0 {
            guard let capture = reader.bigEndian(UInt64.self), let host = reader.bigEndian(UInt32.self) else {
                return nil
            }
            timing = Timing(captureMicros: capture, hostProcessingMicros: host)
        }
        let keyframe = flags & Self.keyframeFlag != 0
        var sets: [Data] = []
        if keyframe {
            guard let count = reader.byte() else { return nil }
            for _ in 0..<count {
                guard let length = reader.bigEndian(UInt16.self), let set = reader.bytes(Int(length)) else {
                    return nil
                }
                sets.append(set)
            }
        }
        // A packet with no frame byte carries nothing to draw; treat it as cut short.
        guard reader.remaining > 0 else { return nil }
        self.init(keyframe: keyframe, timing: timing, parameterSets: sets, frame: reader.rest())
    }
}
