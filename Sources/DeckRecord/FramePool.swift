import DeckDesktop
import Foundation

/// A few BGRA frame buffers reused for the whole recording (DESIGN.md#media-pipelines: nothing allocated per frame).
/// The capture thread copies a lent frame into a free one and hands it to the recording's queue; when none is
/// free (the encoder is behind) the frame is dropped instead of queued.
final class FramePool: @unchecked Sendable {
    /// One copied frame; owned by whoever took it from the pool until it is given back.
    final class Buffer: @unchecked Sendable {
        fileprivate(set) var storage: UnsafeMutableRawPointer
        fileprivate(set) var capacity: Int
        fileprivate(set) var width = 0
        fileprivate(set) var height = 0
        fileprivate(set) var stride = 0
        fileprivate(set) var capturedAt: UInt64 = 0

        fileprivate init(capacity: Int) {
            self.capacity = capacity
            storage = .allocate(byteCount: max(1, capacity), alignment: 64)
        }

        deinit { storage.deallocate() }
    }

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var free: [Buffer]

    init(count: Int, bytes: Int) {
        free = (0..<count).map { _ in Buffer(capacity: bytes) }
    }

    /// Copies `frame` into a free buffer; nil when every buffer is in use.
    func copy(_ frame: CapturedFrame) -> Buffer? {
        guard let buffer = lock.withLock({ free.popLast() }) else { return nil }
        let bytes = frame.stride * (frame.height - 1) + frame.width * 4  // the last row may be short
        if buffer.capacity < bytes {
            // The monitor grew (a mode change): this buffer grows once, then is reused again.
            buffer.storage.deallocate()
            buffer.storage = .allocate(byteCount: bytes, alignment: 64)
            buffer.capacity = bytes
        }
        buffer.storage.copyMemory(from: frame.pixels, byteCount: bytes)
        (buffer.width, buffer.height, buffer.stride, buffer.capturedAt) =
            (frame.width, frame.height, frame.stride, frame.capturedAt)
        return buffer
    }

    /// Gives a buffer back for the next frame.
    func giveBack(_ buffer: Buffer) {
        lock.withLock { free.append(buffer) }
    }
}
