import DeckKit
import Foundation
import Testing

private func hex(_ text: String) -> Data {
    Data(
        stride(from: 0, to: text.count, by: 2).map { at in
            let start = text.index(text.startIndex, offsetBy: at)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        })
}

private func expected(_ file: String) throws -> [String: Any] {
    let all = try #require(try Fixtures.json("packets/expected.json") as? [String: Any])
    return try #require(all[file] as? [String: Any])
}

@Test(arguments: ["video-keyframe.bin", "video-delta.bin", "video-timestamped.bin"])
func videoFixtureDecodesToExpectedFields(file: String) throws {
    let bytes = try Fixtures.data("packets/\(file)")
    let fields = try expected(file)
    let packet = try #require(VideoPacket(decoding: bytes))
    #expect(packet.keyframe == (fields["keyframe"] as? Bool))
    #expect(packet.parameterSets == (fields["parameterSets"] as? [String])?.map(hex))
    #expect(packet.frame == hex(try #require(fields["frame"] as? String)))
    if let timing = fields["timing"] as? [String: Any] {
        #expect(packet.timing?.captureMicros == (timing["captureMicros"] as? NSNumber)?.uint64Value)
        #expect(packet.timing?.hostProcessingMicros == (timing["hostProcessingMicros"] as? NSNumber)?.uint32Value)
    } else {
        #expect(packet.timing == nil)
    }
    #expect(packet.encoded() == bytes)
}

@Test(arguments: ["video-keyframe.bin", "video-delta.bin", "video-timestamped.bin"])
func everyVideoPrefixIsRejectedOrKeepsTheHeader(file: String) throws {
    let bytes = try Fixtures.data("packets/\(file)")
    let whole = try #require(VideoPacket(decoding: bytes))
    let headerSize = bytes.count - whole.frame.count
    for cut in 0..<bytes.count {
        let packet = VideoPacket(decoding: bytes.prefix(cut))
        if cut <= headerSize {
            #expect(packet == nil, "prefix of \(cut) bytes")
        } else {
            #expect(packet?.frame == whole.frame.prefix(cut - headerSize), "prefix of \(cut) bytes")
            #expect(packet?.parameterSets == whole.parameterSets)
        }
    }
}

@Test func videoDecodesFromASliceThatDoesNotStartAtZero() throws {
    let bytes = try Fixtures.data("packets/video-keyframe.bin")
    let padded = Data([9, 9, 9]) + bytes
    let packet = try #require(VideoPacket(decoding: padded.dropFirst(3)))
    #expect(packet.encoded() == bytes)
    #expect(packet.frame.startIndex == 0)
}

@Test func videoRejectsOtherCodecsAndDropsSetsOnDeltas() {
    #expect(VideoPacket(decoding: Data([2, 0, 0, 0, 0, 1])) == nil)
    let delta = VideoPacket(keyframe: false, parameterSets: [Data([0x67])], frame: Data([0, 0, 1, 0x41]))
    #expect(delta.parameterSets.isEmpty)
    #expect(delta.encoded() == Data([1, 0, 0, 0, 1, 0x41]))
}

@Test func audioFixtureDecodesToExpectedFields() throws {
    let bytes = try Fixtures.data("packets/audio.bin")
    let fields = try expected("audio.bin")
    let packet = try #require(AudioPacket(decoding: bytes))
    #expect(Int(packet.channels) == fields["channels"] as? Int)
    #expect(Int(packet.sampleRate) == fields["sampleRate"] as? Int)
    #expect(packet.samples.map(Int.init) == fields["samples"] as? [Int])
    #expect(packet.frameCount == fields["frameCount"] as? Int)
    #expect(packet.encoded() == bytes)
}

@Test func audioPacketLayout() {
    let packet = AudioPacket(channels: 1, sampleRate: 44_100, samples: [0x0102, -2])
    #expect(packet.encoded() == Data([2, 1, 0x00, 0x00, 0xAC, 0x44, 0x02, 0x01, 0xFE, 0xFF]))
    #expect(AudioPacket(channels: 2, sampleRate: 48_000, samples: Array(repeating: 0, count: 1920)).duration == 0.02)
}

@Test func audioPacketRejectsBadInput() throws {
    let bytes = try Fixtures.data("packets/audio.bin")
    for cut in 0..<bytes.count {
        let wholeFrames = cut >= AudioPacket.headerSize && (cut - AudioPacket.headerSize) % 4 == 0
        #expect((AudioPacket(decoding: bytes.prefix(cut)) != nil) == wholeFrames, "prefix of \(cut) bytes")
    }
    #expect(AudioPacket(decoding: Data([1, 2, 0, 0, 0xBB, 0x80])) == nil, "video kind byte")
    #expect(AudioPacket(decoding: Data([2, 0, 0, 0, 0xBB, 0x80])) == nil, "no channels")
    #expect(AudioPacket(decoding: Data([2, 2, 0, 0, 0, 0, 1, 0, 2, 0])) == nil, "zero sample rate")
}

@Test func interleaveClampsAndAlternates() {
    let left: [Float] = [0, 1, -1, 2, 0.5]
    let right: [Float] = [0.25, -0.25, -3, .nan]
    #expect(AudioPacket.interleave([left, right]) == [0, 8192, 32767, -8192, -32767, -32767, 32767, 0])
    #expect(AudioPacket.interleave([]) == [])
    #expect(AudioPacket.interleave([[0.5, 0.5], []]) == [])
}
