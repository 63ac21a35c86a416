import DeckDesktop
import DeckKit
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// Hotkeys held while pressed (issue 22, PROTOCOL §6 "Hold while pressed") through the actor with a fake keyboard:
/// the chord goes down at `pressDown` and comes up only at `pressUp`, when the connection closes, when the host
/// stops, or at the safety limit; a key without `hold` and an older device's `press` tap it. The X server's view
/// is `Tests/live/test_key_hold_live.py`.
@Suite struct KeyHoldTests {
    static let chord = KeyChord(character: "m", modifiers: [.ctrl, .shift])
    static let held = Button(label: "Talk", kind: .hotkey(chord, hold: true))
    static let tapped = Button(label: "Mute", kind: .hotkey(chord))

    final class Keyboard: Sendable {
        let events = Mutex<[TypingSink.Event]>([])
        var sink: TypingSink { .fake { event in self.events.withLock { $0.append(event) } } }
        var all: [TypingSink.Event] { events.withLock { $0 } }

        /// Waits (yielding, no clock) until `count` events came; returns them all.
        func wait(for count: Int) async -> [TypingSink.Event] {
            for _ in 0..<20_000 where all.count < count { await Task.yield() }
            return all
        }
    }

    func setUp(_ key: Button) async throws -> (HostHarness, HostHarness.Device, Keyboard) {
        let keyboard = Keyboard()
        let harness = try HostHarness(desktop: .fake(typing: keyboard.sink))
        var device = try await harness.authorize(try await harness.pair(name: "Phone"))
        await device.send(.setButton(.init(page: 0, index: 2, button: key)), to: harness.host)
        _ = device.inbox()
        return (harness, device, keyboard)
    }

    @Test func theChordStaysDownUntilTheFingerLifts() async throws {
        var (harness, device, keyboard) = try await setUp(Self.held)
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 1) == [.hold(Self.chord, down: true)])
        for _ in 0..<1000 { await Task.yield() }
        #expect(keyboard.all.count == 1, "nothing comes up while the finger is down")
        #expect(device.inbox().contains(.pressResult(.init(page: 0, index: 2, ok: true))))
        await device.send(.pressUp(.init(page: 0, index: 3)), to: harness.host)  // another key: nothing
        await device.send(.pressUp(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 2) == [.hold(Self.chord, down: true), .hold(Self.chord, down: false)])
        await device.send(.pressUp(.init(page: 0, index: 2)), to: harness.host)  // a second up: nothing more
        for _ in 0..<1000 { await Task.yield() }
        #expect(keyboard.all.count == 2)
    }

    @Test func aFingerThatLiftsAtOnceStillPressesThenReleases() async throws {
        let (harness, device, keyboard) = try await setUp(Self.held)
        var sender = device
        await sender.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        await sender.send(.pressUp(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 2) == [.hold(Self.chord, down: true), .hold(Self.chord, down: false)])
    }

    @Test func aClosedConnectionLetsGo() async throws {
        var (harness, device, keyboard) = try await setUp(Self.held)
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 1) == [.hold(Self.chord, down: true)])
        await harness.host.handle(.closed(device.id))
        #expect(await keyboard.wait(for: 2) == [.hold(Self.chord, down: true), .hold(Self.chord, down: false)])
    }

    @Test func theHostLetsGoWhenItStops() async throws {
        var (harness, device, keyboard) = try await setUp(Self.held)
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 1) == [.hold(Self.chord, down: true)])
        await harness.host.shutdown()
        #expect(keyboard.all == [.hold(Self.chord, down: true), .hold(Self.chord, down: false)])
    }

    @Test func theSafetyLimitLetsGo() async throws {
        var (harness, device, keyboard) = try await setUp(Self.held)
        await harness.host.useHoldLimit(.milliseconds(1))
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        var events: [TypingSink.Event] = []
        for _ in 0..<2000 where events.count < 2 {
            try await Task.sleep(for: .milliseconds(5))
            events = keyboard.all
        }
        #expect(events == [.hold(Self.chord, down: true), .hold(Self.chord, down: false)])
    }

    @Test func aKeyWithoutHoldAndAnOlderDevicesPressTap() async throws {
        var (harness, device, keyboard) = try await setUp(Self.tapped)
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 1) == [.key(Self.chord)])
        await device.send(.pressUp(.init(page: 0, index: 2)), to: harness.host)
        await device.send(.setButton(.init(page: 0, index: 2, button: Self.held)), to: harness.host)
        await device.send(.press(.init(page: 0, index: 2)), to: harness.host)
        #expect(await keyboard.wait(for: 2) == [.key(Self.chord), .key(Self.chord)])
    }

    @Test func aRefusedHoldIsAnsweredAndNothingIsLeftHeld() async throws {
        let harness = try HostHarness(desktop: .fake(typing: .unavailable("no display")))
        var device = try await harness.authorize(try await harness.pair(name: "Phone"))
        await device.send(.setButton(.init(page: 0, index: 2, button: Self.held)), to: harness.host)
        await device.send(.pressDown(.init(page: 0, index: 2)), to: harness.host)
        var replies: [HostMessage] = []
        for _ in 0..<20_000 where !replies.contains(where: { if case .pressResult = $0 { true } else { false } }) {
            await Task.yield()
            replies += device.inbox()
        }
        #expect(replies.contains(.pressResult(.init(page: 0, index: 2, ok: false, reason: "no display"))))
        #expect(await harness.host.heldKeys.byConnection.isEmpty)
    }
}
