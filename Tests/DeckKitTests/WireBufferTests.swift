import Foundation
import Testing

@testable import DeckKit

@Suite struct WireBufferTests {
    static func bytes(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) }) }

    @Test func headersGoInFrontAndTagsBehindWithinTheRoomWithoutMoving() {
        var buffer = WireBuffer(copying: Self.bytes(100), front: 30, back: 16)
        let at = buffer.withUnsafeBytes { $0.baseAddress! }
        buffer.prepend(Data([1, 2, 3]))
        buffer.append(16) { $0.initializeMemory(as: UInt8.self, repeating: 0xEE) }
        #expect(buffer.withUnsafeBytes { $0.baseAddress! } == at - 3)
        #expect(buffer.data == Data([1, 2, 3]) + Self.bytes(100) + Data(repeating: 0xEE, count: 16))
        #expect(buffer.frontRoom == 27 && buffer.backRoom == 0)
    }

    @Test func beyondTheRoomItGrowsAndKeepsTheBytes() {
        var buffer = WireBuffer(copying: Self.bytes(10), front: 2, back: 0)
        buffer.prepend(Data(repeating: 7, count: 5))
        buffer.append(2) { $0.copyBytes(from: [8, 9]) }
        #expect(buffer.data == Data(repeating: 7, count: 5) + Self.bytes(10) + Data([8, 9]))
    }

    @Test func aCopyIsNotChangedByWritesToTheOther() {
        var buffer = WireBuffer(copying: Self.bytes(64))
        let copy = buffer
        buffer.withUnsafeMutableBytes { $0[0] = 0xFF }
        buffer.prepend(Data([1]))
        #expect(copy.data == Self.bytes(64))
        #expect(buffer.data == Data([1, 0xFF]) + Self.bytes(64).dropFirst())
    }

    @Test func lentRoomIsWritableAndEveryMessageByteIsPutBack() {
        let message = WireBuffer(copying: Self.bytes(300), front: 16, back: 0)
        for offset in [0, 5, 16, 100, 300] {
            let seen = message.withLentRoom(16, before: offset) { at in
                (at - 16).update(repeating: 0xAB, count: 16)  // what lws does with its frame header
                return Data(UnsafeBufferPointer(start: at, count: 300 - offset))
            }
            #expect(seen == Self.bytes(300).dropFirst(offset), "offset \(offset)")
            #expect(message.data == Self.bytes(300), "offset \(offset)")
        }
    }

    @Test func tooLittleRoomLendsACopyWithRoom() {
        let message = WireBuffer(copying: Self.bytes(50), front: 2, back: 0)
        let seen = message.withLentRoom(16, before: 0) { at in
            (at - 16).update(repeating: 0, count: 16)
            return Data(UnsafeBufferPointer(start: at, count: 50))
        }
        #expect(seen == Self.bytes(50) && message.data == Self.bytes(50))
    }

    @Test func videoHeaderInFrontOfTheFrameIsThePacketsBytes() {
        let sets = [Data([0x67, 1, 2, 3]), Data([0x68, 4])]
        let frame = Data([0, 0, 0, 1, 0x65]) + Self.bytes(500)
        let timings: [VideoPacket.Timing?] = [
            .init(captureMicros: 7, hostProcessingMicros: 9), .init(captureMicros: 1 << 40, hostProcessingMicros: 3),
            nil,
        ]
        for keyframe in [true, false] {
            for timing in timings {
                let packet = VideoPacket(keyframe: keyframe, timing: timing, parameterSets: sets, frame: frame)
                var wire = WireBuffer(copying: frame, front: 100)
                wire.prepend(VideoPacket.header(keyframe: keyframe, timing: timing, parameterSets: sets))
                #expect(wire.data == packet.encoded())
                #expect(wire.count - frame.count <= VideoPacket.maxHeaderSize(keyframe: keyframe, parameterSets: sets))
            }
        }
    }

    @Test func audioWireMessageHoldsThePacketsBytes() {
        let samples: [Int16] = [0, 1, -1, .max, .min, 300]
        let wire = samples.withUnsafeBufferPointer {
            AudioPacket.wireMessage(channels: 2, sampleRate: 48000, samples: $0)
        }
        #expect(wire.data == AudioPacket(channels: 2, sampleRate: 48000, samples: samples).encoded())
        #expect(wire.frontRoom >= WireBuffer.reservedFront && wire.backRoom >= WireBuffer.reservedBack)
    }
}
