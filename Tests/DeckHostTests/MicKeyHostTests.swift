import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// `micMute` keys through the actor with a fake microphone (issue 23): a press toggles the fake's mute, the key's
/// live look follows the feed whoever changed it, and with no microphone the key shows why and a press fails so.
/// The real sound server's side is `Tests/live/test_mic_mute_live.py`.
@Suite struct MicKeyHostTests {
    private static let key = Button(label: "Mic", kind: .micMute)

    /// A host whose microphone is a fake reporting to the host's feed, followed as the daemon's `run` does.
    private static func harness(_ initial: MicState) throws -> (HostHarness, set: @Sendable (MicState) -> Void) {
        var desktop = HostDesktop.fake()
        let feed = MicFeed()
        let (mic, set) = MicControl.fake(initial: initial, onChange: feed.report)
        desktop.mic = mic
        desktop.micFeed = feed
        return (try HostHarness(desktop: desktop), set)
    }

    /// Messages until one matches `wanted` (they come from tasks and may be coalesced: waits, gives up after 10 s).
    private static func first(
        _ device: inout HostHarness.Device, where wanted: (HostMessage) -> Bool
    ) async -> HostMessage? {
        for _ in 0..<1000 {
            if let found = device.inbox().first(where: wanted) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    private static func look(_ message: HostMessage?) -> HostMessage.KeyState? {
        guard case .keyState(let state) = message else { return nil }
        return state
    }

    @Test func aPressMutesAndAChangeElsewhereShowsOnEveryDevice() async throws {
        let (harness, setFromOutside) = try Self.harness(MicState(muted: false))
        let host = harness.host
        let following = Task { await host.followMic() }
        defer { following.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        await a.send(.setButton(.init(page: 0, index: 3, button: Self.key)), to: harness.host)
        let isKeyState = { (m: HostMessage) in Self.look(m)?.index == 3 }
        let unmuted = Self.look(await Self.first(&b, where: isKeyState))
        #expect(unmuted?.look.state == false)
        #expect(unmuted?.look.label == "Mic on")
        #expect(unmuted?.error == nil)

        _ = a.inbox()
        await a.send(.press(.init(page: 0, index: 3)), to: harness.host)
        let answer = await Self.first(&a) { if case .pressResult = $0 { true } else { false } }
        #expect(answer == .pressResult(.init(page: 0, index: 3, ok: true)))
        let now = await harness.host.desktop.mic.current()
        #expect(now == MicState(muted: true))
        let muted = Self.look(await Self.first(&b, where: isKeyState))
        #expect(muted?.look.state == true)
        #expect(muted?.look.label == "Mic muted")

        // Another program unmutes: every device sees it without a press.
        setFromOutside(MicState(muted: false))
        // (A may still have the muted look from its press to read first: wait for the unmuted one.)
        let isUnmuted = { (m: HostMessage) in isKeyState(m) && Self.look(m)?.look.state == false }
        #expect(Self.look(await Self.first(&b, where: isKeyState))?.look.state == false)
        #expect(await Self.first(&a, where: isUnmuted) != nil)
    }

    @Test func withoutAMicrophoneTheKeyShowsWhyAndAPressFailsSo() async throws {
        let (harness, setFromOutside) = try Self.harness(.noServer)
        let host = harness.host
        let following = Task { await host.followMic() }
        defer { following.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        await a.send(.setButton(.init(page: 0, index: 0, button: Self.key)), to: harness.host)
        let isKeyState = { (m: HostMessage) in Self.look(m) != nil }
        let shown = Self.look(await Self.first(&a, where: isKeyState))
        #expect(shown?.error == "no sound server")
        #expect(shown?.look.isEmpty == true)
        await a.send(.press(.init(page: 0, index: 0)), to: harness.host)
        let answer = await Self.first(&a) { if case .pressResult = $0 { true } else { false } }
        #expect(answer == .pressResult(.init(page: 0, index: 0, ok: false, reason: "no sound server")))

        // A server with a microphone appears: the error goes, the state shows.
        setFromOutside(MicState(muted: true))
        let back = Self.look(await Self.first(&a, where: isKeyState))
        #expect(back?.error == nil)
        #expect(back?.look.state == true)
    }

    @Test func aMicMuteKeyReachesAProtocol2DeviceAsAPlainKeyAndKeepsItsKindInTheConfig() throws {
        #expect(Button.Kind.micMute.isProtocol2 == false)
        let text = String(decoding: try JSONEncoder().encode(Self.key), as: UTF8.self)
        #expect(text.contains(#""kind":"micMute""#))
        #expect(try JSONDecoder().decode(Button.self, from: Data(text.utf8)) == Self.key)
    }
}
