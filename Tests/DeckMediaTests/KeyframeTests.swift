import DeckDesktop
import DeckKit
import DeckMedia
import Foundation
import Testing

private func unitTypes(_ frame: EncodedFrame) -> [UInt8] {
    AnnexB.units(frame.accessUnit).compactMap(AnnexB.type(of:))
}

@Test func firstFrameIsAnIDRWithItsParameterSets() throws {
    var fixture = try EncoderFixture(width: 1920, height: 1080)
    let first = try fixture.encodeNext()
    #expect(first.keyframe)
    #expect(unitTypes(first).contains(AnnexB.UnitType.idrSlice.rawValue))
    // The header copies: SPS then PPS, without start codes…
    #expect(first.parameterSets.map { AnnexB.type(of: $0) } == [7, 8])
    #expect(first.parameterSets.allSatisfy { $0.first != 0 })
    // …and the same units also stay in-band, ahead of the IDR slice.
    let units = AnnexB.units(first.accessUnit)
    #expect(units.contains(first.parameterSets[0]) && units.contains(first.parameterSets[1]))
    #expect(first.accessUnit.starts(with: [0, 0, 0, 1]))
}

@Test func framesAfterTheFirstArePFramesWithoutParameterSets() throws {
    var fixture = try EncoderFixture(width: 1920, height: 1080)
    _ = try fixture.encodeNext()
    for _ in 0..<4 {
        let frame = try fixture.encodeNext()
        #expect(!frame.keyframe)
        #expect(frame.parameterSets.isEmpty)
        #expect(unitTypes(frame).contains(AnnexB.UnitType.slice.rawValue))
        #expect(!unitTypes(frame).contains(AnnexB.UnitType.idrSlice.rawValue))
        #expect(!unitTypes(frame).contains(AnnexB.UnitType.sps.rawValue))
    }
}

@Test func requestKeyframeMakesTheNextFrameAnIDROnce() throws {
    var fixture = try EncoderFixture(width: 640, height: 360)
    for _ in 0..<3 { _ = try fixture.encodeNext() }
    fixture.encoder.requestKeyframe()
    fixture.encoder.requestKeyframe()
    let asked = try fixture.encodeNext()
    #expect(asked.keyframe && unitTypes(asked).contains(AnnexB.UnitType.idrSlice.rawValue))
    #expect(asked.parameterSets.count == 2)
    #expect(try !fixture.encodeNext().keyframe)
}

@Test func aKeyframeRequestFromAnotherThreadIsHonoured() async throws {
    var fixture = try EncoderFixture(width: 640, height: 360)
    _ = try fixture.encodeNext()
    let requests = fixture.encoder.keyframeRequests
    await Task.detached { requests.request() }.value
    #expect(try fixture.encodeNext().keyframe)
}

@Test func theSafetyIntervalForcesAKeyframeNobodyAskedFor() throws {
    var fixture = try EncoderFixture(width: 320, height: 180, fps: 30, safetyInterval: .seconds(1))
    let keyframes = try (0..<32).map { _ in try fixture.encodeNext().keyframe }
    #expect(keyframes.indices.filter { keyframes[$0] } == [0, 30])
}

@Test func theSafetyIntervalIsTimeNotFrames() throws {
    // A still screen: two frames a second. Counting frames, 30 of them would take 15 s.
    var fixture = try EncoderFixture(width: 320, height: 180, fps: 30, safetyInterval: .seconds(1))
    let times: [UInt64] = [0, 500_000, 1_000_000, 1_500_000, 2_000_000, 2_600_000, 3_000_000, 3_990_000]
    let keyframes = try times.map { try fixture.encodeNext(at: $0).keyframe }
    // 3.99 s is within half a 30 fps frame of 4 s: on time, not a frame late.
    #expect(keyframes.indices.filter { keyframes[$0] } == [0, 2, 4, 6, 7])
}

@Test func theKeyframeClockTakesAFrameHalfAnIntervalEarlyAsDue() {
    var clock = KeyframeClock(intervalMicros: 1_000_000, fps: 30)
    #expect(clock.isDue(at: 42))
    clock.keyframe(at: 0)
    #expect(!clock.isDue(at: 983_000))
    #expect(clock.isDue(at: 984_000))
    clock.setFPS(60)
    #expect(!clock.isDue(at: 991_000))
    #expect(clock.dueAt == 991_667)
}

@Test func aNewSourceSizeReopensWithAKeyframe() throws {
    var fixture = try EncoderFixture(width: 640, height: 360)
    _ = try fixture.encodeNext()
    _ = try fixture.encodeNext()
    let bigger = TestPattern(width: 800, height: 600)
    let frame = try #require(try bigger.withFrame(0, { try fixture.encoder.encode($0) }))
    #expect(frame.keyframe && frame.width == 800 && frame.height == 600)
    #expect(fixture.encoder.opens == 2)
}

@Test func changingFpsKeepsX264OpenAndNeedsNoKeyframe() throws {
    var fixture = try EncoderFixture(width: 640, height: 360, fps: 60)
    _ = try fixture.encodeNext()
    try fixture.encoder.setFrameRate(30)
    let after = try fixture.encodeNext()
    #expect(fixture.encoder.fps == 30)
    #expect(fixture.encoder.opens == 1)
    #expect(!after.keyframe)
    try fixture.encoder.setFrameRate(47)  // normalized to 60
    #expect(fixture.encoder.fps == 60)
    #expect(try !fixture.encodeNext().keyframe)
}

@Test func aRecordingsKeyframeClockTakesAFrameItsLeadEarly() {
    var clock = KeyframeClock(intervalMicros: 1_000_000, slackMicros: 100_000)
    clock.keyframe(at: 2_000_000)
    #expect(clock.dueAt == 2_900_000)
    #expect(!clock.isDue(at: 2_899_999))
    #expect(clock.isDue(at: 2_900_000))
}
