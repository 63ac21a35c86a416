import DeckKit
import Foundation

/// One encoded picture: an H.264 Annex-B access unit, and on keyframes the SPS/PPS for the packet header.
public struct EncodedFrame: Sendable, Equatable {
    /// The access unit with its start codes; on keyframes it also carries SPS and PPS in-band.
    public var accessUnit: Data
    /// An IDR: decodable on its own.
    public var keyframe: Bool
    /// SPS then PPS, without start codes; empty unless `keyframe`.
    public var parameterSets: [Data]
    /// The encoded size.
    public var width: Int
    public var height: Int

    public init(accessUnit: Data, keyframe: Bool, parameterSets: [Data], width: Int, height: Int) {
        self.accessUnit = accessUnit
        self.keyframe = keyframe
        self.parameterSets = keyframe ? parameterSets : []
        self.width = width
        self.height = height
    }

    /// The PROTOCOL §7 packet for this frame.
    public func packet(timing: VideoPacket.Timing?) -> VideoPacket {
        VideoPacket(keyframe: keyframe, timing: timing, parameterSets: parameterSets, frame: accessUnit)
    }
}

extension VideoPacket.Timing {
    /// Timing for a frame captured at `capture` (µs since the Unix epoch) and sent at `send`, same clock.
    /// The processing time saturates instead of trapping when the clock steps back or a frame is very late.
    public init(captureMicros: UInt64, sendMicros: UInt64) {
        let spent = sendMicros >= captureMicros ? sendMicros - captureMicros : 0
        self.init(captureMicros: captureMicros, hostProcessingMicros: UInt32(min(spent, UInt64(UInt32.max))))
    }
}
