import Foundation

/// What the capture delivers: 48 kHz stereo 16-bit in 10 ms packets (SPEC §8).
public enum SoundFormat {
    public static let rate = 48_000
    public static let channels = 2
    /// 10 ms of sound.
    public static let framesPerPacket = 480
    public static let bytesPerPacket = framesPerPacket * channels * 2
    /// One packet's duration in microseconds.
    public static let packetMicros = UInt64(framesPerPacket * 1_000_000 / rate)

    /// Microseconds since the Unix epoch on the host's clock (the video packets' capture times use the same).
    public static func nowMicros() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
    }
}

/// A consumer of captured sound: one packet of interleaved stereo 48 kHz Int16 (lent for the call only), and
/// when its first sample was captured (microseconds since the Unix epoch, the clock of the video packets'
/// capture times; taken as the packet's arrival from the sound server minus its 10 ms). Called on the
/// capture's thread; must not block.
public typealias SoundConsumer = @Sendable (UnsafeBufferPointer<Int16>, UInt64) -> Void

/// Cuts the bytes a sound server hands over (any size) into whole packets, in one reused buffer.
/// Not thread-safe: its one owner is the capture's thread.
struct PacketChunker: ~Copyable {
    private let buffer: UnsafeMutableBufferPointer<Int16>
    private var filledBytes = 0

    init(framesPerPacket: Int, channels: Int) {
        buffer = .allocate(capacity: framesPerPacket * channels)
        buffer.initialize(repeating: 0)
    }

    deinit { buffer.deallocate() }

    /// Appends `count` bytes from `bytes` (nil: that many bytes of silence, a hole in the recording); calls
    /// `packet` for every packet completed, with the buffer lent for the call.
    mutating func add(_ bytes: UnsafeRawPointer?, count: Int, packet: (UnsafeBufferPointer<Int16>) -> Void) {
        let capacity = buffer.count * 2
        let target = UnsafeMutableRawBufferPointer(buffer)
        var offset = 0
        while offset < count {
            let take = min(capacity - filledBytes, count - offset)
            if let base = bytes {
                target.baseAddress!.advanced(by: filledBytes).copyMemory(from: base + offset, byteCount: take)
            } else {
                target.baseAddress!.advanced(by: filledBytes).initializeMemory(
                    as: UInt8.self, repeating: 0, count: take)
            }
            filledBytes += take
            offset += take
            if filledBytes == capacity {
                packet(UnsafeBufferPointer(buffer))
                filledBytes = 0
            }
        }
    }
}
