import DeckDesktop
import DeckKit
import DeckTesting
import Foundation
import Testing

@testable import DeckActions
@testable import DeckX11

/// The X11 sink against a real X server: `PointerDriver` actions performed through XTest on a private
/// 1920×1080 Xvfb, and what an X client (`Tests/support/xpointer.py`) received.
@Suite struct PointerSinkLiveTests {
    private static let full = Rect(x: 0, y: 0, width: 1920, height: 1080)

    /// A driver for `monitor` and the sink on the recorder's display; `send` performs one message.
    private struct Session {
        let recorder: PointerRecorder
        let sink: InputSink
        var driver: PointerDriver
        var now = 100.0

        init(monitor: Rect = PointerSinkLiveTests.full) throws {
            _ = try LiveDesktop.require("DISPLAY")
            recorder = try PointerRecorder()
            sink = .x11(display: recorder.display)
            driver = PointerDriver(monitor: monitor)
        }

        /// Messages 0.1 s apart on the driver's clock: no move waits for the rate limit.
        mutating func send(_ kind: DeviceMessage.Pointer.Kind, _ x: Double, _ y: Double, dx: Double = 0, dy: Double = 0)
            async throws
        {
            now += 0.1
            let output = driver.receive(DeviceMessage.Pointer(kind: kind, x: x, y: y, dx: dx, dy: dy), now: now)
            #expect(output.wakeAt == nil)
            try await sink.perform(output.actions)
        }
    }

    @Test func clickArrivesAtItsPixelAsButtonOneAndRightClickAsButtonThree() async throws {
        var session = try Session()
        try await session.send(.click, 0.25, 0.75)
        try await session.send(.rightClick, 0.25, 0.75)
        let events = try session.recorder.events(through: "release 3 480,810")
        #expect(
            events == [
                "motion 480,810", "press 1 480,810", "release 1 480,810", "press 3 480,810", "release 3 480,810",
            ])
    }

    @Test func scrollTurnsTheWheelButtons() async throws {
        var session = try Session()
        let notch = WheelAccumulator.notch
        // Away from the centre, where Xvfb's pointer starts, so the first scroll visibly moves it.
        try await session.send(.scroll, 0.75, 0.25, dy: notch)
        try await session.send(.scroll, 0.75, 0.25, dy: -2 * notch)
        try await session.send(.scroll, 0.75, 0.25, dx: notch)
        try await session.send(.scroll, 0.75, 0.25, dx: -notch)
        let events = try session.recorder.events(through: "release 7 1440,270")
        #expect(
            events == [
                "motion 1440,270", "press 4 1440,270", "release 4 1440,270", "press 5 1440,270", "release 5 1440,270",
                "press 5 1440,270",
                "release 5 1440,270", "press 6 1440,270", "release 6 1440,270", "press 7 1440,270",
                "release 7 1440,270",
            ])
    }

    @Test func dragPressesMovesWithTheButtonHeldAndReleases() async throws {
        var session = try Session()
        try await session.send(.down, 0.1, 0.1)
        try await session.send(.move, 0.2, 0.2)
        try await session.send(.up, 0.3, 0.3)
        let events = try session.recorder.events(through: "release 1 576,324")
        #expect(
            events == [
                "motion 192,108", "press 1 192,108", "motion 384,216 held", "motion 576,324 held",
                "release 1 576,324",
            ])
    }

    @Test func releaseAllLiftsTheButtonOfADragCutShort() async throws {
        var session = try Session()
        try await session.send(.down, 0.1, 0.1)
        try await session.sink.perform(session.driver.releaseAll())
        try await session.sink.perform(session.driver.releaseAll())
        try await session.send(.click, 0.5, 0.5)
        let events = try session.recorder.events(through: "release 1 960,540")
        #expect(
            events == [
                "motion 192,108", "press 1 192,108", "release 1 192,108", "motion 960,540", "press 1 960,540",
                "release 1 960,540",
            ])
    }

    @Test func anotherMonitorsPixelsAreOffsetByItsOrigin() async throws {
        // The bottom-right quarter of the screen, as a second monitor would be.
        var session = try Session(monitor: Rect(x: 960, y: 540, width: 960, height: 540))
        try await session.send(.click, 1, 1)
        try await session.send(.click, 0, 0)
        let events = try session.recorder.events(through: "release 1 960,540")
        #expect(
            events == [
                "motion 1919,1079", "press 1 1919,1079", "release 1 1919,1079", "motion 960,540", "press 1 960,540",
                "release 1 960,540",
            ])
    }

    @Test func keysymTapsReachTheFocusedClient() async throws {
        let session = try Session()
        try await session.sink.tapKeysym(0x61)  // a
        try await session.sink.tapKeysym(0xff0d)  // Return
        let events = try session.recorder.events(through: "key 0xff0d")
        #expect(events == ["key 0x61", "key 0xff0d"])
        // A keysym no key of the US layout types on its base level.
        await #expect(throws: InputSinkError.noKey(keysym: 0x41)) { try await session.sink.tapKeysym(0x41) }
    }

    @Test func aDisplayThatGoesAwayFailsEachCallAndLeavesTheHostRunning() async throws {
        var session = try Session()
        try await session.send(.down, 0.5, 0.5)
        session.recorder.stopServer()
        // libX11's default reaction to the lost connection would be exit(1), ending this test process too.
        await #expect(throws: InputSinkError.noDisplay) { try await session.sink.perform(session.driver.releaseAll()) }
        await #expect(throws: InputSinkError.noDisplay) { try await session.sink.setButton(.left, true) }
    }
}
