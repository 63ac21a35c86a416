import Foundation
import Testing

@testable import DeckTransport

@Suite struct MessageAssemblerTests {
    private func feed(
        _ assembler: inout MessageAssembler, _ bytes: [UInt8], binary: Bool = false, final: Bool, remaining: Int = 0
    ) -> MessageAssembler.Outcome {
        bytes.withUnsafeBytes { assembler.append($0, isBinary: binary, isFinal: final, remainingInFrame: remaining) }
    }

    @Test func messageInEveryChunkSizeComesOutWhole() {
        let message = Array("a message split every possible way".utf8)
        for size in 1...message.count {
            var assembler = MessageAssembler(limit: 1000)
            var outcomes: [MessageAssembler.Outcome] = []
            var offset = 0
            while offset < message.count {
                let end = min(offset + size, message.count)
                let isLast = end == message.count
                outcomes.append(
                    feed(&assembler, Array(message[offset..<end]), final: isLast, remaining: message.count - end))
                offset = end
            }
            #expect(outcomes.last == .message(Data(message), isBinary: false), "chunk size \(size)")
            #expect(outcomes.dropLast().allSatisfy { $0 == .needMore }, "chunk size \(size)")
        }
    }

    @Test func binaryFlagComesFromTheFirstFrame() {
        var assembler = MessageAssembler(limit: 100)
        #expect(feed(&assembler, [1, 2], binary: true, final: false) == .needMore)
        // Continuation frames carry no type of their own.
        #expect(feed(&assembler, [3], binary: false, final: true) == .message(Data([1, 2, 3]), isBinary: true))
        #expect(feed(&assembler, [4], binary: false, final: true) == .message(Data([4]), isBinary: false))
    }

    @Test func limitIsInclusive() {
        var exact = MessageAssembler(limit: 4)
        #expect(feed(&exact, [1, 2], final: false, remaining: 2) == .needMore)
        #expect(feed(&exact, [3, 4], final: true) == .message(Data([1, 2, 3, 4]), isBinary: false))
        var over = MessageAssembler(limit: 4)
        #expect(feed(&over, [1, 2], final: false) == .needMore)
        #expect(feed(&over, [3, 4, 5], final: true) == .tooLarge)
    }

    @Test func oversizedFrameIsRefusedFromItsFirstChunk() {
        var assembler = MessageAssembler(limit: 16)
        #expect(feed(&assembler, [1], final: false, remaining: 16) == .tooLarge)
    }

    @Test func emptyMessageIsDelivered() {
        var assembler = MessageAssembler(limit: 16)
        #expect(feed(&assembler, [], final: true) == .message(Data(), isBinary: false))
    }

    @Test func peerAddressesAreNormalized() {
        #expect(PeerAddress.normalized("::ffff:127.0.0.1") == "127.0.0.1")
        #expect(PeerAddress.normalized("::1") == "::1")
        #expect(PeerAddress.isLoopback("127.0.0.1"))
        #expect(PeerAddress.isLoopback("::1"))
        #expect(!PeerAddress.isLoopback("192.168.1.4"))
    }
}
