import DeckDesktop
import DeckKit
import DeckMedia
import Foundation
import Testing

@Test(arguments: [
    (1920, 1080, 1280, 1280, 720), (1920, 1080, 4000, 1920, 1080), (2560, 1440, 1000, 1000, 562),
    (1366, 768, 100, 320, 180), (1365, 767, 3840, 1364, 766),
])
func encodedSizeFollowsFit(width: Int, height: Int, maxSide: Int, expectedWidth: Int, expectedHeight: Int) throws {
    var fixture = try EncoderFixture(width: width, height: height, maxSide: maxSide)
    let frame = try fixture.encodeNext()
    #expect(frame.width == expectedWidth && frame.height == expectedHeight)
    #expect(fixture.encoder.encodedSize == ScreenGeometry.fit(width: width, height: height, maxSide: maxSide))
    #expect(frame.keyframe)
}

@Test(arguments: [EncoderChoice.vaapi, .nvenc, .auto])
func aHardwareEncoderThatFailsFallsBackToX264WithOneLogLine(choice: EncoderChoice) throws {
    var fixture = try EncoderFixture(width: 640, height: 360, choice: choice, hardware: missingHardware)
    #expect(fixture.encoder.backend == .x264)
    #expect(fixture.log.lines.count == 1)
    let line = try #require(fixture.log.lines.first)
    #expect(line.hasSuffix("using libx264"))
    for tried in choice.candidates.dropLast() {
        #expect(line.contains("\(tried.codecName) did not open"))
    }
    #expect(try fixture.encodeNext().keyframe)
    #expect(try !fixture.encodeNext().keyframe)
    // Reopening for a new source size reuses x264 without trying (and logging) the hardware again.
    _ = try TestPattern(width: 800, height: 600).withFrame(0, { try fixture.encoder.encode($0) })
    #expect(fixture.log.lines.count == 1)
}

@Test func x264ChosenOutrightLogsNothing() throws {
    var fixture = try EncoderFixture(width: 640, height: 360, choice: .x264, hardware: missingHardware)
    _ = try fixture.encodeNext()
    #expect(fixture.log.lines.isEmpty)
    #expect(fixture.encoder.backend == .x264)
}

@Test func everyChoiceEndsWithX264() {
    #expect(EncoderChoice.allCases.allSatisfy { $0.candidates.last == .x264 })
    #expect(EncoderChoice(rawValue: "vaapi")?.candidates == [.vaapi, .x264])
    #expect(EncoderChoice(rawValue: "quicksync") == nil)
}
