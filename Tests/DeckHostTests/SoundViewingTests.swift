import DeckDesktop
import DeckKit
import DeckSound
import DeckTesting
import Foundation
import Testing

@testable import DeckHost

/// Sound while viewing through the host's actor with a fake sound source the test drives (PROTOCOL §6
/// "Screen", §7 "Audio"): the audio flag starts and stops it without restarting the video, packets are sealed
/// as `[2][2][48000][samples]`, at most 10 are in flight, and every end of viewing leaves the capture.
@Suite struct SoundViewingTests {
    typealias Viewer = ScreenStreamTests.Viewer

    static func viewer(_ sound: FakeSound) async throws -> Viewer {
        let desk = ScreenStreamTests.Desk()
        desk.sound.withLock { $0 = .fake(sound) }
        return try await Viewer.make(desk: desk)
    }

    static func start(_ viewer: inout Viewer, audio: Bool) async -> HostMessage.ScreenStarted? {
        await viewer.send(
            .startScreen(.init(displayId: ScreenStreamTests.monitor.id, maxSide: 640, fps: 30, audio: audio)))
        return await viewer.wait { if case .screenStarted(let s) = $0 { s } else { nil } }
    }

    /// The audio packets received since the last call (video packets skipped; each is opened once, in order).
    static func audio(_ viewer: inout Viewer) throws -> [AudioPacket] {
        let sealed = viewer.harness.link.binary(to: viewer.device.id).dropFirst(viewer.opened)
        viewer.opened += sealed.count
        return try sealed.compactMap { data in
            let inner = try viewer.device.channel.openBinary(data)
            return inner.first == AudioPacket.kind ? AudioPacket(decoding: inner) : nil
        }
    }

    static let tone: [Int16] = (0..<960).map { Int16(truncatingIfNeeded: $0 * 31) }

    @Test func theAudioFlagStartsSoundAndScreenStartedSaysSo() async throws {
        let sound = FakeSound()
        var viewer = try await Self.viewer(sound)
        let started = try #require(await Self.start(&viewer, audio: true))
        #expect(started.audio && sound.subscribers == 1)
        sound.push(Self.tone)
        let packets = try Self.audio(&viewer)
        #expect(packets == [AudioPacket(channels: 2, sampleRate: 48_000, samples: Self.tone)])
        let status = await viewer.host.control(ControlRequest(command: .status))
        #expect(status.viewer == "iPad (monitor HDMI-1, 640x360 at 30 fps, with sound)")
    }

    @Test func withoutTheFlagNoSoundIsCaptured() async throws {
        let sound = FakeSound()
        var viewer = try await Self.viewer(sound)
        let started = try #require(await Self.start(&viewer, audio: false))
        #expect(!started.audio && sound.subscribers == 0)
    }

    @Test func aSoundServerThatFailsStillStartsTheVideoWithoutSound() async throws {
        var viewer = try await Self.viewer(FakeSound(failure: .noServer))
        let started = try #require(await Self.start(&viewer, audio: true))
        #expect(!started.audio && started.width == 640)
    }

    @Test func screenOptionsTurnsSoundOnAndOffWithoutRestartingTheVideo() async throws {
        let sound = FakeSound()
        var viewer = try await Self.viewer(sound)
        _ = try #require(await Self.start(&viewer, audio: false))
        let capture = try #require(viewer.desk.capture)
        await viewer.send(.screenOptions(.init(fps: 30, audio: true)))
        #expect(await eventually { sound.subscribers == 1 })
        await viewer.send(.screenOptions(.init(fps: 30, audio: false)))
        #expect(await eventually { sound.subscribers == 0 })
        #expect(viewer.desk.capture === capture && !capture.isStopped, "the video kept its capture")
        let count = viewer.desk.captures.withLock { $0.count }
        #expect(count == 1)
    }

    @Test func atMostTenPacketsAreInFlightAndTheRestAreDropped() async throws {
        let sound = FakeSound()
        var viewer = try await Self.viewer(sound)
        _ = try #require(await Self.start(&viewer, audio: true))
        viewer.harness.link.hold()
        for _ in 0..<25 { sound.push(Self.tone) }
        #expect(try Self.audio(&viewer).count == 10)
        viewer.harness.link.release()
        for _ in 0..<3 { sound.push(Self.tone) }
        #expect(try Self.audio(&viewer).count == 3)
    }

    @Test(arguments: ["stopScreen", "closed", "disconnect-viewer", "shutdown"])
    func everyEndOfViewingLeavesTheCapture(ending: String) async throws {
        let sound = FakeSound()
        var viewer = try await Self.viewer(sound)
        _ = try #require(await Self.start(&viewer, audio: true))
        #expect(sound.subscribers == 1)
        switch ending {
        case "stopScreen": await viewer.send(.stopScreen(.init()))
        case "closed": await viewer.host.connectionClosed(viewer.device.id)
        case "disconnect-viewer": _ = await viewer.host.control(ControlRequest(command: .disconnectViewer))
        default: await viewer.host.shutdown()
        }
        #expect(await eventually { sound.subscribers == 0 })
        _ = try Self.audio(&viewer)
        sound.push(Self.tone)
        #expect(try Self.audio(&viewer).isEmpty, "no packet after the end")
    }
}

/// Polls `check` (up to 10 s) for a change made by the host's actor.
func eventually(_ check: @Sendable () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if check() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return check()
}
