import Foundation
import Testing

@testable import DeckTransport

/// Seeded random fragment sequences and request paths: what a peer on the LAN controls before any
/// handshake. The frame length lws reports comes from the peer's frame header (up to 2^63 − 1).
@Suite struct TransportFuzzTests {
    static let remainders = [0, 1, 2, 15, 16, 17, 1 << 20, Int.max - 1, Int.max]

    /// Whether the sum exceeds `limit`, counting an overflowing sum as exceeding it.
    static func exceeds(_ parts: [Int], _ limit: Int) -> Bool {
        var sum = 0
        for part in parts {
            let (next, overflow) = sum.addingReportingOverflow(part)
            if overflow { return true }
            sum = next
        }
        return sum > limit
    }

    @Test func anyFragmentSequenceAssemblesOrIsRefused() {
        var rng = FuzzRNG(seed: 0x5EED_0401)
        var outcomes = (messages: 0, tooLarge: 0)
        for _ in 0..<200 {
            let limit = rng.pick([0, 1, 16, 64, 1000])
            var assembler = MessageAssembler(limit: limit)
            var buffered = Data()
            var binary: Bool?
            for i in 0..<100 {
                let chunk = rng.bytes(rng.below(24))
                let (isBinary, isFinal) = (rng.chance(50), rng.chance(40))
                let remaining = rng.chance(30) ? rng.pick(Self.remainders) : rng.below(limit + 8)
                let outcome = chunk.withUnsafeBytes {
                    assembler.append($0, isBinary: isBinary, isFinal: isFinal, remainingInFrame: remaining)
                }
                binary = binary ?? isBinary
                if Self.exceeds([buffered.count, chunk.count, remaining], limit) {
                    #expect(outcome == .tooLarge, "#\(i)")
                    outcomes.tooLarge += 1
                    (buffered, binary) = (Data(), nil)
                } else if isFinal {
                    #expect(outcome == .message(buffered + chunk, isBinary: binary ?? false), "#\(i)")
                    outcomes.messages += 1
                    (buffered, binary) = (Data(), nil)
                } else {
                    #expect(outcome == .needMore, "#\(i)")
                    buffered += chunk
                }
            }
        }
        #expect(outcomes.messages > 1000 && outcomes.tooLarge > 1000)
    }

    /// The exact sequence that trapped: a small first fragment, then a continuation frame whose header
    /// claims 2^63 − 1 bytes; buffered + chunk + remaining overflowed Int.
    @Test func continuationClaimingTheLargestFrameIsRefused() {
        var assembler = MessageAssembler(limit: 16 << 20)
        let first = [UInt8](repeating: 0x61, count: 10)
        let outcome = first.withUnsafeBytes {
            assembler.append($0, isBinary: false, isFinal: false, remainingInFrame: 0)
        }
        #expect(outcome == .needMore)
        let next = [UInt8](repeating: 0x61, count: 4)
        let huge = next.withUnsafeBytes {
            assembler.append($0, isBinary: false, isFinal: false, remainingInFrame: Int.max - 4)
        }
        #expect(huge == .tooLarge)
    }

    @Test func requestPathsNeverLeaveTheWebRoot() {
        var rng = FuzzRNG(seed: 0x5EED_0402)
        let pieces = [
            "/", "//", ".", "..", "...", ".git", "a", "index.html", "%2e%2e", "\\", "\0", "é", "?x=1", "#", " ",
        ]
        for i in 0..<20_000 {
            let path = (0..<rng.below(8)).map { _ in rng.pick(pieces) }.joined()
            guard let relative = StaticFiles.relativePath(path, index: "index.html") else { continue }
            let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
            #expect(!relative.hasPrefix("/"), "#\(i) \(path)")
            #expect(segments.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") }, "#\(i) \(path)")
        }
        for i in 0..<5000 {
            let address = String(decoding: rng.bytes(rng.below(40)), as: UTF8.self)
            _ = PeerAddress.isLoopback(PeerAddress.normalized(rng.chance(50) ? "::ffff:" + address : address))
            _ = i
        }
    }
}
