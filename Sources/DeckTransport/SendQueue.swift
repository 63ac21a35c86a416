import DeckKit
import Foundation

/// The messages waiting to be written to one WebSocket, and the cap on the bytes they may hold.
///
/// A device that stops reading fills its socket, and then whatever the host keeps answering piles up here:
/// without a cap one connection could take the host's memory (issue 20.1). Past `limit` bytes the connection
/// is closed instead (PROTOCOL §0, 1008 "too much unread"). Messages leave in frames of at most
/// `fragmentSize` bytes, so lws never holds more than one frame of a connection, a big message does not keep
/// other connections waiting, and the keep-alive sees progress frame by frame.
struct SendQueue {
    /// One frame to hand to lws: bytes `range` of `message`, which it shares with the queue (no copy).
    struct Fragment {
        var message: WireBuffer
        var range: Range<Int>
        var kind: Kind
        /// The message's last frame (FIN set).
        var isFinal: Bool
        /// The message's `onSent`, carried by its last frame only.
        var onSent: (@Sendable () -> Void)?
    }

    /// The opcode of a frame: a message's first frame says text or binary, the others continue it.
    enum Kind: Equatable {
        case text, binary, continuation
    }

    /// What `add` did.
    enum Admission: Equatable {
        /// Queued; `first` when the queue was empty (the keep-alive starts watching it).
        case queued(first: Bool)
        /// Over the cap: the message was refused and every queued message not yet begun was dropped. The
        /// connection must be closed.
        case overLimit
    }

    /// Most bytes the queue may hold; a single message is always taken by an empty queue, whatever its size.
    let limit: Int
    let fragmentSize: Int
    private var messages: [OutgoingMessage] = []
    /// Index of the first message not fully handed over (messages before it are spent, freed on compaction).
    private var head = 0
    /// Bytes of `messages[head]` already handed over.
    private var offset = 0
    /// Bytes queued and not yet handed over.
    private(set) var queuedBytes = 0

    init(limit: Int, fragmentSize: Int = 64 * 1024) {
        precondition(limit > 0 && fragmentSize > 0)
        self.limit = limit
        self.fragmentSize = fragmentSize
    }

    var isEmpty: Bool { head == messages.count }

    /// Messages waiting, the one being written included.
    var count: Int { messages.count - head }

    mutating func add(_ message: OutgoingMessage) -> Admission {
        // A subtraction, not a sum: both sides stay far from overflow.
        guard isEmpty || message.bytes.count <= limit - queuedBytes else {
            dropUnstarted()
            return .overLimit
        }
        let first = isEmpty
        messages.append(message)
        queuedBytes += message.bytes.count
        return .queued(first: first)
    }

    /// The next frame to write, or nil when nothing waits.
    mutating func next() -> Fragment? {
        guard !isEmpty else { return nil }
        let message = messages[head]
        let length = min(fragmentSize, message.bytes.count - offset)
        let kind: Kind = offset > 0 ? .continuation : (message.isBinary ? .binary : .text)
        let isFinal = offset + length == message.bytes.count
        let range = offset..<offset + length
        queuedBytes -= length
        if isFinal {
            messages[head] = OutgoingMessage(bytes: WireBuffer(), isBinary: false, onSent: nil)
            head += 1
            offset = 0
            compact()
        } else {
            offset += length
        }
        return Fragment(
            message: message.bytes, range: range, kind: kind, isFinal: isFinal, onSent: isFinal ? message.onSent : nil)
    }

    /// Keeps the message being written (so the peer gets whole frames, then the close) and forgets the rest.
    private mutating func dropUnstarted() {
        let keep = offset > 0 ? 1 : 0
        for index in (head + keep)..<messages.count { queuedBytes -= messages[index].bytes.count }
        messages.removeSubrange((head + keep)...)
        compact()
    }

    /// Frees spent slots once they are most of the array, so a long-lived queue does not grow.
    private mutating func compact() {
        guard head > 0, head * 2 >= messages.count else { return }
        messages.removeFirst(head)
        head = 0
    }
}

extension SendQueue.Fragment {
    /// The frame's bytes, copied (for tests).
    var bytes: Data { message.withUnsafeBytes { Data($0[range]) } }
}
