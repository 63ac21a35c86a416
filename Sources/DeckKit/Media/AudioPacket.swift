import Foundation

/// Uncompressed system sound inside sealed binary (PROTOCOL §7):
/// `[2][channels][sample rate, 4 bytes BE][samples, Int16 LE, channels interleaved]`.
public struct AudioPacket: Hashable, Sendable {
    /// First byte of every audio packet (video packets start with their codec, 1).
    public static let kind: UInt8 = 2
    /// Header bytes before the samples.
    public static let headerSize = 6

    /// Channels, interleaved in `samples`.
    public var channels: UInt8
    /// Samples per second per channel.
    public var sampleRate: UInt32
    /// Interleaved samples: frame 0 of every channel, then frame 1…
    public var samples: [Int16]

    /// A packet; `samples.count` should be a multiple of `channels`.
    public init(channels: UInt8, sampleRate: UInt32, samples: [Int16]) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// Sample frames (one sample per channel each).
    public var frameCount: Int { channels == 0 ? 0 : samples.count / Int(channels) }

    /// Seconds of sound; what the jitter buffer counts.
    public var duration: Double { sampleRate == 0 ? 0 : Double(frameCount) / Double(sampleRate) }

    /// The packet bytes.
    public func encoded() -> Data {
        samples.withUnsafeBufferPointer { Self.encode(channels: channels, sampleRate: sampleRate, samples: $0) }
    }

    /// The bytes of a packet holding `samples` (interleaved), written in one allocation and one copy: the
    /// host's sound path calls this for every 10 ms of sound, straight from the capture's buffer.
    public static func encode(channels: UInt8, sampleRate: UInt32, samples: UnsafeBufferPointer<Int16>) -> Data {
        var bytes = Data(count: headerSize + samples.count * 2)
        bytes.withUnsafeMutableBytes { write(channels: channels, sampleRate: sampleRate, samples: samples, into: $0) }
        return bytes
    }

    /// The same bytes in a `WireBuffer` with room for the seal and the transport: the host's sound path, so
    /// the samples are copied once on their way to the socket.
    public static func wireMessage(channels: UInt8, sampleRate: UInt32, samples: UnsafeBufferPointer<Int16>)
        -> WireBuffer
    {
        WireBuffer(count: headerSize + samples.count * 2) {
            write(channels: channels, sampleRate: sampleRate, samples: samples, into: $0)
        }
    }

    private static func write(
        channels: UInt8, sampleRate: UInt32, samples: UnsafeBufferPointer<Int16>,
        into raw: UnsafeMutableRawBufferPointer
    ) {
        raw[0] = kind
        raw[1] = channels
        raw.storeBytes(of: sampleRate.bigEndian, toByteOffset: 2, as: UInt32.self)
        // Int16 in memory is little-endian on every platform TouchDeck runs on (x86-64, arm64).
        UnsafeMutableRawBufferPointer(rebasing: raw[headerSize...]).copyMemory(from: UnsafeRawBufferPointer(samples))
    }

    /// Reads a packet; nil for a short header, zero channels or rate, or a partial sample frame.
    public init?(decoding data: Data) {
        var reader = ByteReader(data)
        guard reader.byte() == Self.kind, let channels = reader.byte(), channels > 0,
            let rate = reader.bigEndian(UInt32.self), rate > 0,
            reader.remaining % (2 * Int(channels)) == 0
        else { return nil }
        let bytes = reader.rest()
        let samples = stride(from: 0, to: bytes.count, by: 2).map { at in
            Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
        }
        self.init(channels: channels, sampleRate: rate, samples: samples)
    }

    /// Planar float channels (−1…1) to interleaved Int16: values beyond ±1 are clamped, and the
    /// shortest channel sets the frame count so uneven channels never read past an end.
    public static func interleave(_ channels: [[Float]]) -> [Int16] {
        let frames = channels.lazy.map(\.count).min() ?? 0
        var out: [Int16] = []
        out.reserveCapacity(frames * channels.count)
        for frame in 0..<frames {
            for channel in channels {
                out.append(sample(channel[frame]))
            }
        }
        return out
    }

    private static func sample(_ value: Float) -> Int16 {
        // NaN would trap in the Int16 conversion; silence is the honest stand-in.
        guard !value.isNaN else { return 0 }
        return Int16((min(max(value, -1), 1) * 32767).rounded())
    }
}
