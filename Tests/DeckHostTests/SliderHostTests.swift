import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Sliders through the actor with fake levels (issue 23): `setSlider` moves the bound level, an outside change and
/// the app going away reach every device as the slider's live look, a speakers slider follows the gauge. The real
/// sound server's side is `Tests/live/test_slider_live.py`.
@Suite struct SliderHostTests {
    private static func slider(_ binding: SliderBinding) -> Button {
        Button(label: "S", kind: .slider(binding), span: Span(slots: 3))
    }

    private static func first(
        _ device: inout HostHarness.Device, where wanted: (HostMessage.KeyState) -> Bool
    ) async -> HostMessage.KeyState? {
        for _ in 0..<1000 {
            for case .keyState(let state) in device.inbox() where wanted(state) { return state }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    @Test func anAppSliderMovesTheAppFollowsOutsideChangesAndSaysWhenTheAppIsGone() async throws {
        var desktop = HostDesktop.fake()
        let (levels, outside) = SoundLevels.fake([.app("Player"): 1])
        desktop.levels = levels
        let harness = try HostHarness(desktop: desktop)
        let host = harness.host
        let following = Task { await host.followLevels() }
        defer { following.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        await a.send(.setButton(.init(page: 0, index: 0, button: Self.slider(.app("Player")))), to: host)
        #expect(await Self.first(&b) { $0.index == 0 && $0.look.value == 1 } != nil)

        await a.send(.setSlider(.init(page: 0, index: 0, value: 0.35)), to: host)
        #expect(await Self.first(&b) { $0.look.value == 0.35 } != nil, "the other device sees the new level")
        #expect(levels.current(.app("Player")) == .level(0.35))

        outside(.app("Player"), 0.6)
        #expect(await Self.first(&a) { $0.look.value == 0.6 } != nil)
        outside(.app("Player"), nil)
        let gone = await Self.first(&a) { $0.error != nil }
        #expect(gone?.error == "Player plays no sound now")
        #expect(gone?.look.isEmpty == true)
    }

    @Test func aSpeakersSliderShowsAndSetsTheGaugesLevel() async throws {
        let harness = try HostHarness(desktop: HostDesktop.fake())
        let host = harness.host
        let following = Task { await host.followVolume() }
        defer { following.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        await a.send(.setButton(.init(page: 0, index: 4, button: Self.slider(.speakers))), to: host)
        #expect(await Self.first(&a) { $0.index == 4 && $0.look.value == 0.5 } != nil)
        await a.send(.setSlider(.init(page: 0, index: 4, value: 0.8)), to: host)
        #expect(await Self.first(&a) { $0.look.value == 0.8 } != nil)
        #expect(await host.desktop.volume.current().level == 0.8)
    }
}
