import Foundation

/// What the capture delivers: 48 kHz stereo 16-bit in 10 ms packets (DESIGN.md#sound).
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
