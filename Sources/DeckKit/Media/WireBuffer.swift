import Foundation

/// The bytes of one outgoing binary message in one allocation with room in front and behind, so that each
/// stage of the send path writes its part where it belongs instead of copying the message behind its header:
/// the encoder copies a frame in once, the packet header goes in front of it, the seal encrypts in place and
/// puts seq and nonce in front and the tag behind, and the transport lets lws write its WebSocket frame header
/// into the room still left in front (`LWS_PRE`). One copy per frame instead of four.
///
/// A value with copy-on-write storage, like `Data`: a stage that changes bytes while another copy shares them
/// copies first, so sharing is always safe and working in place is what a sole owner gets. Every copy of the
/// bytes is counted (`copies`), which is how the bench and the tests see that the send path made only one.
public struct WireBuffer: Sendable {
    /// Room in front that producers leave for the stages after them: the seal's seq and nonce (20 bytes) and
    /// lws's frame header room (`LWS_PRE`, 16 on 64-bit Linux), with spare.
    public static let reservedFront = 64
    /// Room behind for the seal's tag.
    public static let reservedBack = 16

    private var storage: Storage
    /// Offsets of the message's first byte and one past its last, inside `storage`.
    private var start: Int
    private var end: Int

    /// The message bytes, copied once into a buffer with `front` bytes of room before them and `back` after.
    public init(copying bytes: UnsafeRawBufferPointer, front: Int = reservedFront, back: Int = reservedBack) {
        storage = Storage(capacity: front + bytes.count + back)
        start = front
        end = front + bytes.count
        if let source = bytes.baseAddress {
            storage.base.advanced(by: front).copyMemory(from: source, byteCount: bytes.count)
        }
        Self.countCopy()
    }

    /// No bytes and no room; allocates nothing.
    public init() {
        storage = Self.noStorage
        start = 0
        end = 0
    }

    /// `count` bytes written by `body` (counted as the one copy a writer makes of what it writes).
    public init(
        count: Int, front: Int = reservedFront, back: Int = reservedBack,
        writing body: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        storage = Storage(capacity: front + count + back)
        start = front
        end = front + count
        try body(UnsafeMutableRawBufferPointer(start: storage.base + front, count: count))
        Self.countCopy()
    }

    /// `data` copied once, with the room the later stages need.
    public init(copying data: Data, front: Int = reservedFront, back: Int = reservedBack) {
        self = data.withUnsafeBytes { WireBuffer(copying: $0, front: front, back: back) }
    }

    /// Number of message bytes.
    public var count: Int { end - start }
    /// Free bytes before the message.
    public var frontRoom: Int { start }
    /// Free bytes after the message.
    public var backRoom: Int { storage.capacity - end }

    /// A copy of the message bytes as `Data` (for tests and for sinks that keep bytes; not the send path).
    public var data: Data {
        Self.countCopy()
        return Data(bytes: storage.base + start, count: count)
    }

    /// Reads the message bytes in place.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.base + start, count: count))
    }

    /// Changes the message bytes in place (after a copy if another value shares them).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        makeUnique()
        return try body(UnsafeMutableRawBufferPointer(start: storage.base + start, count: count))
    }

    /// Puts `count` bytes in front of the message, written by `body`; grows the room (one copy) if it is short.
    public mutating func prepend(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        makeUnique(front: count)
        start -= count
        try body(UnsafeMutableRawBufferPointer(start: storage.base + start, count: count))
    }

    /// Puts `bytes` in front of the message.
    public mutating func prepend(_ bytes: Data) {
        prepend(bytes.count) { $0.copyBytes(from: bytes) }
    }

    /// Adds `count` bytes after the message, written by `body`; grows the room (one copy) if it is short.
    public mutating func append(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        makeUnique(back: count)
        end += count
        try body(UnsafeMutableRawBufferPointer(start: storage.base + end - count, count: count))
    }

    /// Adds `bytes` after the message.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.count) { $0.copyMemory(from: bytes) }
    }

    /// Lends `room` writable bytes right before message byte `offset` and the bytes from there on, for a
    /// writer that puts its own header there (lws's frame header before each frame of a message), without a
    /// copy even while values on the same thread share the buffer: the bytes before `offset` that the room
    /// covers are put back before this returns, so no value sees a change. Only for a holder that knows no
    /// other thread reads the buffer meanwhile (the transport, which `makeUnique`s what it is handed). Without
    /// that much room (a buffer made with less in front) the bytes from `offset` are copied behind fresh room.
    public func withLentRoom<R>(
        _ room: Int, before offset: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> R
    ) rethrows -> R {
        precondition(offset >= 0 && offset <= count, "offset outside the message")
        guard start + offset >= room else {
            let spare = withUnsafeBytes {
                WireBuffer(copying: UnsafeRawBufferPointer(rebasing: $0[offset...]), front: room, back: 0)
            }
            return try spare.withLentRoom(room, before: 0, body)
        }
        let at = (storage.base + start + offset).assumingMemoryBound(to: UInt8.self)
        let covered = min(offset, room)
        return try withUnsafeTemporaryAllocation(byteCount: max(covered, 1), alignment: 1) { saved in
            saved.baseAddress!.copyMemory(from: at - covered, byteCount: covered)
            defer { UnsafeMutableRawPointer(at - covered).copyMemory(from: saved.baseAddress!, byteCount: covered) }
            return try body(at)
        }
    }

    /// Moves the bytes out, leaving an empty buffer: how a holder hands its buffer on without sharing it (a
    /// shared buffer would be copied by the next stage that writes).
    public mutating func take() -> WireBuffer {
        var taken = WireBuffer()
        swap(&taken, &self)
        return taken
    }

    /// Copies the storage when another value shares it or when the room asked for is not there.
    public mutating func makeUnique(front: Int = 0, back: Int = 0) {
        let fits = start >= front && storage.capacity - end >= back
        if fits && isKnownUniquelyReferenced(&storage) { return }
        let newFront = max(start, front)
        let copy = Storage(capacity: newFront + count + max(storage.capacity - end, back))
        copy.base.advanced(by: newFront).copyMemory(from: storage.base + start, byteCount: count)
        (storage, start, end) = (copy, newFront, newFront + count)
        Self.countCopy()
    }

    // MARK: - Counting copies

    /// How often message bytes were copied so far, process-wide: into a new buffer, on a shared write, for
    /// more room, or out as `Data`. Cheap enough to stay on: one uncontended lock per copy.
    public static var copies: Int { copyCount.withLock { $0 } }

    /// Counts a copy made outside this type (a transport that has to copy bytes it was given).
    public static func countCopy() { copyCount.withLock { $0 += 1 } }

    private static let copyCount = LockedCount()
    private static let noStorage = Storage(capacity: 0)

    /// One heap allocation, freed when the last value using it goes.
    private final class Storage: @unchecked Sendable {  // bytes change only through a unique owner
        let base: UnsafeMutableRawPointer
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutableRawPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
        }

        deinit { base.deallocate() }
    }
}

extension WireBuffer: Equatable {
    /// Equal when the message bytes are; the room around them does not count.
    public static func == (lhs: WireBuffer, rhs: WireBuffer) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }
}

/// A counter behind a lock (Foundation only: DeckKit also builds for Apple platforms without `Atomic`).
private final class LockedCount: @unchecked Sendable {  // `value` is only touched under `lock`
    private let lock = NSLock()
    private var value = 0

    func withLock<R>(_ body: (inout Int) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
