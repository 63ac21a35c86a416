import DeckDesktop
import Foundation
import Testing

@testable import DeckSound

/// Bytes in any piece size come out as whole 10 ms packets, in order, holes as silence.
@Test(arguments: [1, 2, 3, 7, 100, 1920, 1921, 5000])
func chunkerCutsAnyPiecesIntoWholePackets(piece: Int) {
    let frames = 1000  // 2.08 packets
    let samples = (0..<(frames * 2)).map { Int16(truncatingIfNeeded: $0 * 37) }
    let bytes = samples.withUnsafeBytes { Array($0) }
    var chunker = PacketChunker(framesPerPacket: 480, channels: 2)
    var out: [Int16] = []
    var packets = 0
    bytes.withUnsafeBytes { raw in
        var at = 0
        while at < raw.count {
            let end = min(at + piece, raw.count)
            chunker.add(raw.baseAddress! + at, count: end - at) { packet in
                #expect(packet.count == 960)
                out += packet
                packets += 1
            }
            at = end
        }
    }
    #expect(packets == 2)
    #expect(out == Array(samples.prefix(1920)))
}

@Test func aHoleIsSilence() {
    var chunker = PacketChunker(framesPerPacket: 480, channels: 2)
    var out: [Int16] = [1]
    let ones = [Int16](repeating: 1, count: 960)
    ones.withUnsafeBytes { raw in chunker.add(raw.baseAddress, count: 100) { _ in } }
    chunker.add(nil, count: 1820) { out = Array($0) }
    #expect(out.count == 960 && out.prefix(50).allSatisfy { $0 == 1 } && out.dropFirst(50).allSatisfy { $0 == 0 })
}
