import DeckDesktop
import DeckSound
import DeckTesting
import Foundation
import Testing

@testable import DeckActions

@Suite struct VolumeControlTests {
    func near(_ level: Double) -> @Sendable (VolumeState) -> Bool {
        { $0.available && abs($0.level - level) < 0.01 }
    }

    @Test func connectsToTheDesktopsServer() async throws {
        _ = try LiveDesktop.require("PULSE_SERVER")
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        #expect(volume.current().available)
    }

    @Test func setLevelIsSeenByPactl() async throws {
        _ = try LiveDesktop.require("PULSE_SERVER")
        let pulse = try PrivatePulse()
        try await pulse.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pulse.server, onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        #expect(await volume.setLevel(0.3) == .ok)
        #expect(try pulse.pactl("get-sink-volume", "@DEFAULT_SINK@").contains("/  30% /"))
        #expect(await inbox.next(where: near(0.3)) != nil)
        #expect(abs(volume.current().level - 0.3) < 0.01)
    }

    @Test func changesMadeElsewhereArePushed() async throws {
        _ = try LiveDesktop.require("PULSE_SERVER")
        let pulse = try PrivatePulse()
        try await pulse.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pulse.server, onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "45%")
        #expect(await inbox.next(where: near(0.45)) != nil)
        try pulse.pactl("set-sink-mute", "@DEFAULT_SINK@", "1")
        #expect(await inbox.next(where: \.muted) != nil)
        #expect(await volume.toggleMute() == .ok)
        #expect(try pulse.pactl("get-sink-mute", "@DEFAULT_SINK@").contains("Mute: no"))
        #expect(await inbox.next(where: { $0.available && !$0.muted }) != nil)
    }

    @Test func channelsAreAveraged() async throws {
        _ = try LiveDesktop.require("PULSE_SERVER")
        let pulse = try PrivatePulse()
        try await pulse.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pulse.server, onChange: inbox.send)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "20%", "60%")
        #expect(await inbox.next(where: near(0.4)) != nil)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "150%")
        #expect(await inbox.next(where: near(1)) != nil)
        #expect(volume.current().level <= 1)
    }

    @Test func noServerIsUnavailableUntilOneAppears() async throws {
        _ = try LiveDesktop.require("PULSE_SERVER")
        let pulse = try PrivatePulse()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pulse.server, retryEvery: .milliseconds(200), onChange: inbox.send)
        #expect(await inbox.next(where: { $0 == .unavailable }) != nil)
        #expect(await volume.setLevel(0.5) == .failed("no sound server"))
        #expect(await volume.toggleMute() == .failed("no sound server"))
        try await pulse.start()
        #expect(await inbox.next(where: \.available) != nil)
        pulse.stop()
        #expect(await inbox.next(where: { !$0.available }) != nil)
        try await pulse.start()
        #expect(await inbox.next(where: \.available) != nil)
        #expect(await volume.setLevel(0.25) == .ok)
    }

    @Test func fakeBehavesLikeTheLiveOne() async {
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.fake(onChange: inbox.send)
        #expect(await volume.setLevel(1.7) == .ok)
        #expect(volume.current() == VolumeState(available: true, level: 1, muted: false))
        #expect(await volume.toggleMute() == .ok)
        #expect(await inbox.next(where: \.muted) != nil)
        let silent = VolumeControl.fake(initial: .unavailable)
        #expect(await silent.setLevel(0.5) == .failed("no sound server"))
    }
}
