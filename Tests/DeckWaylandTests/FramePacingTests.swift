import Testing

@testable import DeckWayland

/// The pacing rule without a compositor: the clock is passed in (nanoseconds).
struct FramePacingTests {
    let ms: UInt64 = 1_000_000

    @Test func theFirstFrameGoesAtOnceAndNothingWaitsAfterIt() {
        var pacing = FramePacing(fps: 30)
        #expect(pacing.step(now: 5 * ms) == .idle)
        pacing.frameWaiting()
        #expect(pacing.step(now: 5 * ms) == .deliver)
        #expect(pacing.step(now: 6 * ms) == .idle)
    }

    @Test func aFrameTooSoonWaitsForTheRestOfTheIntervalAndIsNotLost() {
        var pacing = FramePacing(fps: 50)  // 20 ms
        pacing.frameWaiting()
        #expect(pacing.step(now: 100 * ms) == .deliver)
        pacing.frameWaiting()
        #expect(pacing.step(now: 108 * ms) == .wait(12 * ms))
        pacing.frameWaiting()  // a newer buffer replaced the held one: still one frame owed
        #expect(pacing.step(now: 115 * ms) == .wait(5 * ms))
        #expect(pacing.step(now: 120 * ms) == .deliver)
        #expect(pacing.step(now: 200 * ms) == .idle)
    }

    @Test func aLowerRateLengthensTheWaitAndARefreshIsAFrameLikeAnyOther() {
        var pacing = FramePacing(fps: 60)
        pacing.frameWaiting()
        #expect(pacing.step(now: 0) == .deliver)
        pacing.setFPS(5)  // 200 ms
        pacing.frameWaiting()
        #expect(pacing.step(now: 50 * ms) == .wait(150 * ms))
        #expect(pacing.step(now: 200 * ms) == .deliver)
        pacing.setFPS(0)  // at least one a second
        #expect(pacing.interval == 1000 * ms)
    }

    @Test func monitorIdsAreStableAndPositive() {
        #expect(MonitorID.of(connector: "Meta-0") == MonitorID.of(connector: "Meta-0"))
        #expect(MonitorID.of(connector: "Meta-0") != MonitorID.of(connector: "Meta-1"))
        #expect(MonitorID.of(connector: "HDMI-1") >= 0)
    }

    @Test func buttonsAndWheelMapOntoEvdevAndMutterAxes() {
        #expect(WaylandInput.evdevCode(.left) == 0x110)
        #expect(WaylandInput.evdevCode(.right) == 0x111)
        #expect(WaylandInput.evdevCode(.middle) == 0x112)
        #expect(WaylandInput.axis(.up) == (0, -1) && WaylandInput.axis(.down) == (0, 1))
        #expect(WaylandInput.axis(.left) == (1, -1) && WaylandInput.axis(.right) == (1, 1))
    }

    @Test func aKeysymMutterCannotMapIsNoKeyAndOtherFailuresDropTheSession() {
        var dropped = 0
        let noKeycode = DBusError.failed(
            name: "org.freedesktop.DBus.Error.Failed", message: "No keycode found for keyval")
        #expect(WaylandInput.failure(noKeycode, keysym: 0xe9) { dropped += 1 } == .noKey(keysym: 0xe9))
        #expect(dropped == 0)
        let gone = DBusError.failed(name: "org.freedesktop.DBus.Error.UnknownObject", message: "No such object")
        #expect(WaylandInput.failure(gone, keysym: 0x61) { dropped += 1 } == .noDisplay)
        #expect(dropped == 1)
        #expect(WaylandInput.failure(WaylandInput.noStream, keysym: nil) { dropped += 1 } == .noDisplay)
        #expect(dropped == 1, "an input-only session without a stream is kept")
    }
}
