import Foundation
import Synchronization
import Testing

@testable import DeckTransport

@Suite struct SendQueueTests {
    private func message(_ count: Int, byte: UInt8 = 1, binary: Bool = false, onSent: (@Sendable () -> Void)? = nil)
        -> OutgoingMessage
    {
        OutgoingMessage(data: Data(repeating: byte, count: count), isBinary: binary, onSent: onSent)
    }

    /// Every frame the queue hands out, until it is empty.
    private func drain(_ queue: inout SendQueue) -> [SendQueue.Fragment] {
        var frames: [SendQueue.Fragment] = []
        while let next = queue.next() { frames.append(next) }
        return frames
    }

    @Test func aMessageLeavesInFramesThatJoinBackWhole() {
        for size in [1, 99, 100, 101, 250, 1000] {
            var queue = SendQueue(limit: 10_000, fragmentSize: 100)
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
            #expect(queue.add(OutgoingMessage(data: data, isBinary: true, onSent: nil)) == .queued(first: true))
            let frames = drain(&queue)
            #expect(frames.count == (size + 99) / 100, "size \(size)")
            #expect(Data(frames.map(\.bytes).joined()) == data, "size \(size)")
            #expect(frames.map(\.kind) == [.binary] + Array(repeating: .continuation, count: frames.count - 1))
            #expect(frames.map(\.isFinal) == Array(repeating: false, count: frames.count - 1) + [true])
            #expect(queue.isEmpty && queue.queuedBytes == 0)
        }
    }

    @Test func onSentTravelsWithTheLastFrameOnly() {
        let calls = Mutex(0)
        var queue = SendQueue(limit: 10_000, fragmentSize: 10)
        _ = queue.add(message(25, onSent: { calls.withLock { $0 += 1 } }))
        let frames = drain(&queue)
        #expect(frames.map { $0.onSent != nil } == [false, false, true])
        frames.last?.onSent?()
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func messagesKeepTheirOrderAndKind() {
        var queue = SendQueue(limit: 10_000, fragmentSize: 4)
        #expect(queue.add(message(6, byte: 1)) == .queued(first: true))
        #expect(queue.add(message(3, byte: 2, binary: true)) == .queued(first: false))
        #expect(queue.queuedBytes == 9 && queue.count == 2)
        let frames = drain(&queue)
        #expect(frames.map(\.kind) == [.text, .continuation, .binary])
        #expect(frames.map(\.bytes.first) == [1, 1, 2])
        #expect(queue.add(message(1)) == .queued(first: true), "an emptied queue counts as empty again")
    }

    @Test func beyondTheCapTheMessageIsRefusedAndTheUnstartedAreDropped() {
        var queue = SendQueue(limit: 100, fragmentSize: 10)
        #expect(queue.add(message(60)) == .queued(first: true))
        #expect(queue.add(message(40)) == .queued(first: false), "exactly at the cap still fits")
        #expect(queue.queuedBytes == 100)
        #expect(queue.add(message(1)) == .overLimit)
        #expect(queue.isEmpty && queue.queuedBytes == 0, "nothing begun: everything is let go")
    }

    @Test func theMessageBeingWrittenIsFinishedAfterAnOverflow() {
        var queue = SendQueue(limit: 100, fragmentSize: 10)
        _ = queue.add(message(50, byte: 7))
        _ = queue.add(message(50, byte: 8))
        _ = queue.next()  // 10 of the first message are out
        #expect(queue.queuedBytes == 90)
        #expect(queue.add(message(20)) == .overLimit)
        let rest = drain(&queue)
        #expect(rest.count == 4 && rest.allSatisfy { $0.bytes.allSatisfy { $0 == 7 } })
        #expect(rest.last?.isFinal == true, "the peer gets whole messages, then the close")
        #expect(queue.queuedBytes == 0)
    }

    @Test func oneMessageLargerThanTheCapFitsAnEmptyQueue() {
        var queue = SendQueue(limit: 100, fragmentSize: 64)
        #expect(queue.add(message(500)) == .queued(first: true))
        #expect(queue.add(message(1)) == .overLimit, "but nothing may join it")
    }

    @Test func writtenBytesMakeRoom() {
        var queue = SendQueue(limit: 100, fragmentSize: 50)
        _ = queue.add(message(100))
        _ = queue.next()
        #expect(queue.add(message(50)) == .queued(first: false), "the 50 already written no longer count")
        #expect(queue.add(message(1)) == .overLimit)
    }

    @Test func aLongRunStaysSmall() {
        var queue = SendQueue(limit: 1000, fragmentSize: 7)
        var total = 0
        for round in 0..<10_000 {
            _ = queue.add(message(round % 23 + 1))
            if round % 3 != 0 { total += drain(&queue).map(\.bytes.count).reduce(0, +) }
        }
        total += drain(&queue).map(\.bytes.count).reduce(0, +)
        #expect(total == (0..<10_000).map { $0 % 23 + 1 }.reduce(0, +))
        #expect(queue.isEmpty && queue.count == 0)
    }
}
