import DeckDesktop

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
