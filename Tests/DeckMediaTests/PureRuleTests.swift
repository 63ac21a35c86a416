import DeckDesktop
import DeckKit
import DeckMedia
import Foundation
import Testing

@Test func annexBSplitsOnThreeAndFourByteStartCodes() {
    let stream = Data([9, 9, 0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 1, 0x65, 4, 5, 0])
    let units = AnnexB.units(stream)
    #expect(units == [Data([0x67, 1, 2]), Data([0x68, 3]), Data([0x65, 4, 5, 0])])
    #expect(AnnexB.parameterSets(stream) == [Data([0x67, 1, 2]), Data([0x68, 3])])
    #expect(AnnexB.containsIDR(stream))
    #expect(AnnexB.units(Data([1, 2, 3])).isEmpty)
}

@Test func theRateKeepsEachFramesShareAcrossAnFpsChange() {
    let settings = EncoderSettings(width: 1920, height: 1080, fps: 60, bufferFrames: 1)
    let perFrame = 1920 * 1080 / 5  // 0.2 bit per pixel
    #expect(
        settings.rate(actualFps: 60)
            == RateLimits(maxBitrate: perFrame * 60, bufferBits: perFrame, budget: perFrame * 60))
    // At 30 fps the real budget halves, and x264 (still counting 60 fps) must get the same per-frame share.
    #expect(
        settings.rate(actualFps: 30)
            == RateLimits(maxBitrate: perFrame * 60, bufferBits: perFrame, budget: perFrame * 30))
}

@Test func theRateCeilingStaysAtFortyMegabits() {
    let settings = EncoderSettings(width: 3840, height: 2160, fps: 60, bufferFrames: 60)
    let limits = settings.rate(actualFps: 60)
    #expect(limits.budget == 40_000_000)
    #expect(limits.maxBitrate <= 40_000_000)
    #expect(limits.bufferBits == limits.maxBitrate / 60 * 60)
    #expect(settings.rate(actualFps: 30).budget == 40_000_000)
}

@Test func encodedFramesBecomeProtocolPackets() throws {
    var fixture = try EncoderFixture(width: 640, height: 360)
    let key = try fixture.encodeNext()
    let timing = VideoPacket.Timing(captureMicros: 1_000_000, sendMicros: 1_004_500)
    let bytes = key.packet(timing: timing).encoded()
    let decoded = try #require(VideoPacket(decoding: bytes))
    #expect(decoded.keyframe && decoded.timing?.hostProcessingMicros == 4_500)
    #expect(decoded.parameterSets == key.parameterSets && decoded.frame == key.accessUnit)
    let delta = try fixture.encodeNext()
    let plain = try #require(VideoPacket(decoding: delta.packet(timing: nil).encoded()))
    #expect(!plain.keyframe && plain.parameterSets.isEmpty && plain.frame == delta.accessUnit)
}

@Test func processingTimeSaturatesInsteadOfTrapping() {
    #expect(VideoPacket.Timing(captureMicros: 10, sendMicros: 5).hostProcessingMicros == 0)
    #expect(VideoPacket.Timing(captureMicros: 0, sendMicros: UInt64.max).hostProcessingMicros == UInt32.max)
}

@Test func keyframeRequestsCollapseIntoOne() {
    let requests = KeyframeRequests()
    #expect(!requests.take())
    requests.request()
    requests.request()
    #expect(requests.take())
    #expect(!requests.take())
}

@Test func theWireMessageOfAFrameIsItsPacketsBytes() throws {
    var fixture = try EncoderFixture(width: 640, height: 360)
    let timing = VideoPacket.Timing(captureMicros: 1_000_000, sendMicros: 1_004_500)
    for _ in 0..<3 {
        let frame = try fixture.encodeNext()
        let packet = frame.packet(timing: timing).encoded()
        #expect(frame.wireMessage(timing: timing).data == packet, "keyframe \(frame.keyframe)")
        #expect(frame.wireMessage(timing: nil).data == frame.packet(timing: nil).encoded())
    }
    #expect(try fixture.encodeNext().wireMessage(timing: timing).frontRoom >= WireBuffer.reservedFront)
}
