import DeckKit
import Testing

@Test(arguments: [
    (30, 30), (60, 60), (44, 30), (45, 60), (0, 30), (-1, 30), (15, 30), (120, 60), (59, 60),
])
func fpsSnapsToThirtyOrSixty(requested: Int, expected: Int) {
    #expect(StreamRate.normalize(fps: requested) == expected)
}

/// Seed part 8's table: an 11-inch iPad (2388×1668) at 30 and 60 fps.
@Test func bitrateForAnElevenInchIPad() {
    #expect(StreamRate.bitrate(width: 2388, height: 1668, fps: 30) == 23_899_104)
    #expect(StreamRate.bitrate(width: 2388, height: 1668, fps: 60) == 40_000_000)
}

@Test func bitrateIsPixelsTimesFpsTimesAFifth() {
    #expect(StreamRate.bitrate(width: 1920, height: 1080, fps: 30) == 12_441_600)
    #expect(StreamRate.bitrate(width: 1280, height: 720, fps: 60) == 11_059_200)
    #expect(StreamRate.bitrate(width: 3840, height: 2160, fps: 30) == 40_000_000)
    #expect(StreamRate.bitrate(width: 0, height: 1080, fps: 60) == 0)
}

@Test func defaultsMatchTheSeed() {
    #expect(StreamRate.low == 30)
    #expect(StreamRate.high == 60)
    #expect(StreamRate.maxBitrate == 40_000_000)
}
