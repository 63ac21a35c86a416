import DeckActions
import DeckDesktop
import DeckKit
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// Multi-action and toggle presses through the actor (fake desktop): what each press is answered, what is saved
/// and broadcast. The X server's view of the same is `Tests/live/test_compound_keys_live.py`.
@Suite struct CompoundKeyHostTests {
    private static func command(_ line: String) -> Button { Button(label: "", kind: .command(line)) }

    /// Replies until `count` have come (actions run in tasks of their own: yield, do not wait on a clock).
    private static func replies(_ device: inout HostHarness.Device, count: Int) async -> [HostMessage] {
        var all: [HostMessage] = []
        for _ in 0..<20_000 where all.count < count {
            await Task.yield()
            all += device.inbox()
        }
        return all
    }

    @Test func aToggleFlipsWhenItsActionWorksOnEveryDeviceAndInTheConfig() async throws {
        let fail = Mutex(false)
        let ran = Mutex<[String]>([])
        let runner = ActionRunner { launch in
            guard case .command(let line, _) = launch else { return .failed("not a command") }
            ran.withLock { $0.append(line) }
            return fail.withLock { $0 } ? .failed("exit 1") : .ok
        }
        let harness = try HostHarness(actions: runner)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        let toggle = Toggle(on: Self.command("mute off"), off: Self.command("mute on"), onLabel: "On", offLabel: "Off")
        await a.send(
            .setButton(.init(page: 0, index: 0, button: Button(label: "Mic", kind: .toggle(toggle)))), to: harness.host)
        _ = a.inbox()
        _ = b.inbox()
        await a.send(.press(.init(page: 0, index: 0)), to: harness.host)
        let flipped = Button(label: "Mic", kind: .toggle(toggle.with(isOn: true)))
        let answers = await Self.replies(&a, count: 2)
        #expect(answers.count == 2)
        guard case .layout(let shown) = answers.first else {
            Issue.record("the new state comes before the answer: \(answers)")
            return
        }
        #expect(shown.layout.button(page: 0, index: 0) == flipped)
        #expect(answers.last == .pressResult(.init(page: 0, index: 0, ok: true)))
        #expect(b.inbox() == [.layout(shown)])
        let saved = try ConfigStore(directory: harness.dir.url).load(
            .config, as: HostConfig.self, fallback: HostConfig())
        #expect(saved.layout.button(page: 0, index: 0) == flipped)

        // Off fails: answered with its reason, the state stays, nothing is broadcast.
        fail.withLock { $0 = true }
        await a.send(.press(.init(page: 0, index: 0)), to: harness.host)
        #expect(
            await Self.replies(&a, count: 1) == [.pressResult(.init(page: 0, index: 0, ok: false, reason: "exit 1"))])
        #expect(b.inbox().isEmpty)
        #expect(ran.withLock { $0 } == ["mute off", "mute on"])
    }

    @Test func aSecondPressCancelsARunningMultiActionAndBothHearIt() async throws {
        let release = AsyncStream<Void>.makeStream()
        let ran = Mutex<[String]>([])
        let runner = ActionRunner { launch in
            guard case .command(let line, _) = launch else { return .failed("not a command") }
            ran.withLock { $0.append(line) }
            if line == "slow" { for await _ in release.stream { break } }
            return .ok
        }
        let harness = try HostHarness(actions: runner)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        let multi = Button(label: "Two", kind: .multi([.key(Self.command("slow")), .key(Self.command("next"))]))
        await a.send(.setButton(.init(page: 0, index: 3, button: multi)), to: harness.host)
        _ = a.inbox()
        await a.send(.press(.init(page: 0, index: 3)), to: harness.host)
        #expect(await Self.replies(&a, count: 1) == [.pressResult(.init(page: 0, index: 3, ok: true, running: true))])
        for _ in 0..<20_000 where ran.withLock({ $0.isEmpty }) { await Task.yield() }  // the first step runs
        await a.send(.press(.init(page: 0, index: 3)), to: harness.host)
        release.continuation.yield()
        let cancelled = HostMessage.pressResult(
            .init(page: 0, index: 3, ok: false, reason: "cancelled before step 2 of 2"))
        #expect(await Self.replies(&a, count: 2) == [cancelled, cancelled])
        #expect(ran.withLock { $0 } == ["slow"])
    }

    @Test func aMultiActionOutOfItsLimitsIsRefusedAndTheLayoutIsUntouched() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        _ = a.inbox()
        let long = Button(label: "Long", kind: .multi([.key(Self.command("x")), .delay(milliseconds: 3_600_000)]))
        await a.send(.setButton(.init(page: 0, index: 0, button: long)), to: harness.host)
        #expect(
            a.inbox() == [
                .error(.init(code: .badMessage, message: "a delay is 10 ms to 10 s (10…10000)", request: "setButton"))
            ])
        let saved = try ConfigStore(directory: harness.dir.url).load(
            .config, as: HostConfig.self, fallback: HostConfig())
        #expect(saved.layout == DeckLayout.empty)
    }
}
