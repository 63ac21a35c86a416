import Foundation
import Testing

@testable import DeckKit

/// Seeded mutation tests of the binary packets, text input, app search and screen geometry.
@Suite struct MediaFuzzTests {
    static let packets: [Data] = ["video-keyframe.bin", "video-delta.bin", "video-timestamped.bin", "audio.bin"]
        .compactMap { try? Fixtures.data("packets/\($0)") }

    @Test func mutatedPacketsDecodeToWhatTheyReEncode() {
        var rng = FuzzRNG(seed: 0x5EED_0101)
        #expect(Self.packets.count == 4)
        var decoded = (video: 0, audio: 0)
        for i in 0..<20_000 {
            let data = ByteMutator.mutate(rng.pick(Self.packets), rng: &rng, pool: Self.packets)
            // The reader must not assume a slice starts at index 0.
            let input = rng.chance(30) ? (Data([9, 9]) + data).dropFirst(2) : data
            if let video = VideoPacket(decoding: input) {
                decoded.video += 1
                #expect(VideoPacket(decoding: video.encoded()) == video, "#\(i)")
                #expect(!video.frame.isEmpty && (video.keyframe || video.parameterSets.isEmpty), "#\(i)")
            }
            if let audio = AudioPacket(decoding: input) {
                decoded.audio += 1
                #expect(AudioPacket(decoding: audio.encoded()) == audio, "#\(i)")
                #expect(audio.samples.count % Int(audio.channels) == 0 && audio.duration.isFinite, "#\(i)")
            }
        }
        #expect(decoded.video > 1000 && decoded.audio > 200)
    }

    @Test func interleaveTakesAnyFloats() {
        var rng = FuzzRNG(seed: 0x5EED_0102)
        let odd: [Float] = [.nan, .infinity, -.infinity, -0, 1, -1, 2, .greatestFiniteMagnitude, .ulpOfOne]
        for _ in 0..<2000 {
            let planar = (0..<rng.below(4)).map { _ in
                (0..<rng.below(8)).map { _ in
                    rng.chance(40) ? rng.pick(odd) : Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
                }
            }
            let frames = planar.map(\.count).min() ?? 0
            #expect(AudioPacket.interleave(planar).count == frames * planar.count)
        }
    }
}

/// Random Unicode through the text rules and the app search.
@Suite struct TextFuzzTests {
    /// Scalars that stress grapheme rules: line breaks, CR LF, combining marks, ZWJ, emoji and their
    /// modifiers, regional indicators, Hangul jamo and syllables, controls.
    static let scalars: [Unicode.Scalar] = [
        "a", "Z", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{0301}", "\u{0308}",
        "\u{200D}", "\u{FE0F}", "\u{1F44D}", "\u{1F3FD}", "\u{1F1F0}", "\u{1F1F7}", "\u{1100}", "\u{1161}", "\u{11A8}",
        "\u{AC00}", "\u{D7A3}", "\u{3131}", "\u{3141}", "\u{0130}", "\u{00DF}", "\u{0000}", "\u{7F}", "\u{FFFD}",
        "\u{10FFFF}", "\u{E000}", "\u{0E33}", "\u{1F469}", "\u{1F4BB}",
    ]

    static func randomText(_ rng: inout FuzzRNG, length: Int) -> String {
        var view = String.UnicodeScalarView()
        for _ in 0..<length {
            if rng.chance(85) {
                view.append(rng.pick(scalars))
            } else if let scalar = Unicode.Scalar(UInt32(rng.below(0x11_0000))) {
                view.append(scalar)
            }
        }
        return String(view)
    }

    @Test func cleanAndChunksHoldTheirRulesForAnyText() {
        var rng = FuzzRNG(seed: 0x5EED_0201)
        for i in 0..<1500 {
            let text = Self.randomText(&rng, length: rng.chance(5) ? 2500 : rng.below(60))
            let clean = TextInput.clean(text)
            #expect(clean.count <= TextInput.maxCharacters, "#\(i)")
            #expect(!clean.contains { $0.isNewline || $0 == "\t" }, "#\(i)")
            #expect(TextInput.clean(clean) == clean, "#\(i)")
            let chunks = TextInput.chunks(text)
            #expect(chunks.joined() == text, "#\(i)")
            #expect(chunks.allSatisfy { $0.utf16.count <= TextInput.maxChunkUTF16 || $0.count == 1 }, "#\(i)")
        }
    }

    @Test func searchRangesStayInsideTheMatchedText() {
        var rng = FuzzRNG(seed: 0x5EED_0202)
        for i in 0..<400 {
            let apps = (0..<rng.below(12)).map { n in
                HostMessage.AppEntry(
                    id: Self.randomText(&rng, length: rng.below(12)) + ".desktop",
                    name: Self.randomText(&rng, length: rng.below(12)))
            }
            let name = apps.isEmpty ? "" : rng.pick(apps).name
            let query = rng.chance(50) ? String(name.prefix(rng.below(4))) : Self.randomText(&rng, length: rng.below(4))
            for match in AppSearch.search(apps, query: query) {
                let field = match.field == .id ? match.app.id : match.app.name
                if let range = match.range {
                    #expect(range.lowerBound >= 0 && range.upperBound <= field.utf16.count, "#\(i)")
                    #expect(match.group != .namePrefix || range.lowerBound == 0, "#\(i)")
                }
            }
            #expect(AppSearch.choseong(of: name).count == name.count, "#\(i)")
        }
    }
}
