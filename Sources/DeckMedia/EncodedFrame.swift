import DeckKit
import Foundation

/// One encoder output: an Annex-B access unit and what the stream needs to know about it.
///
/// The access unit sits in a `WireBuffer` with room in front for the packet header and the seal, so the
/// screen stream sends the bytes libavcodec handed over after one copy (`wireMessage`).
public struct EncodedFrame: Sendable, Equatable {
    /// Room the encoder leaves in front of an access unit: what the later stages need (`WireBuffer`) and a
    /// packet header with parameter sets (x264's SPS and PPS are a few dozen bytes).
    public static let frontRoom = WireBuffer.reservedFront + 256

    /// The access unit in its buffer.
    public private(set) var wire: WireBuffer
    /// An IDR: decodable on its own.
    public var keyframe: Bool
    /// SPS then PPS, without start codes; empty unless `keyframe`.
    public var parameterSets: [Data]
    /// The encoded size.
    public var width: Int
    public var height: Int

    public init(accessUnit: Data, keyframe: Bool, parameterSets: [Data], width: Int, height: Int) {
        self.init(
            wire: WireBuffer(copying: accessUnit, front: Self.frontRoom), keyframe: keyframe,
            parameterSets: parameterSets, width: width, height: height)
    }

    /// A frame from the packets libavcodec handed over, collected by `collect`. `flaggedKeyframe`:
    /// libavcodec marked it a keyframe; it counts as one only if the bitstream holds an IDR, which is what lets
    /// a decoder start. Parameter sets are read from the bytes in place.
    public init(collected wire: WireBuffer, flaggedKeyframe: Bool, width: Int, height: Int) {
        let keyframe = flaggedKeyframe && wire.withUnsafeBytes { AnnexB.containsIDR($0) }
        self.init(
            wire: wire, keyframe: keyframe,
            parameterSets: keyframe ? wire.withUnsafeBytes { AnnexB.parameterSets($0) } : [], width: width,
            height: height)
    }

    private init(wire: WireBuffer, keyframe: Bool, parameterSets: [Data], width: Int, height: Int) {
        self.wire = wire
        self.keyframe = keyframe
        self.parameterSets = keyframe ? parameterSets : []
        self.width = width
        self.height = height
    }

    /// Adds one packet's bytes to an access unit being collected: the one copy of the frame on the send path.
    public static func collect(_ bytes: UnsafeRawBufferPointer, into wire: inout WireBuffer?) {
        if wire == nil {
            wire = WireBuffer(copying: bytes, front: frontRoom)
        } else {
            wire?.append(bytes)
        }
    }

    /// The access unit with its start codes; on keyframes it also carries SPS and PPS in-band. A copy, for
    /// sinks that keep bytes (the recorder, tests); the screen stream takes `wireMessage`.
    public var accessUnit: Data { wire.data }

    /// The PROTOCOL §7 packet for this frame.
    public func packet(timing: VideoPacket.Timing?) -> VideoPacket {
        VideoPacket(keyframe: keyframe, timing: timing, parameterSets: parameterSets, frame: accessUnit)
    }

    /// The same packet's bytes with the frame left where the encoder put it: its header goes into the room in
    /// front. Consuming, so the buffer is not shared and the seal that follows works in place.
    public consuming func wireMessage(timing: VideoPacket.Timing?) -> WireBuffer {
        var message = wire.take()
        message.prepend(VideoPacket.header(keyframe: keyframe, timing: timing, parameterSets: parameterSets))
        return message
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
