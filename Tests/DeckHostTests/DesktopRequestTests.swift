import DeckActions
import DeckDesktop
import DeckKit
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// Apps, volume, keypad and press results through the host's actor, with fake desktops (no X, no sound server).
@Suite struct DesktopRequestTests {
    static let playing = VolumeState(available: true, level: 0.25, muted: false)

    /// Reads a device's inbox until `done` holds for what arrived (work finishes on other tasks), at most ~10 s.
    func collect(_ device: inout HostHarness.Device, until done: ([HostMessage]) -> Bool) async -> [HostMessage] {
        var seen = device.inbox()
        for _ in 0..<10_000 where !done(seen) {
            try? await Task.sleep(for: .milliseconds(1))
            seen += device.inbox()
        }
        return seen
    }

    func volumes(_ messages: [HostMessage]) -> [HostMessage.Volume] {
        messages.compactMap { if case .volume(let v) = $0 { v } else { nil } }
    }

    @Test func anAuthorizedDeviceGetsTheLayoutItsProfilesThenTheVolumeThenTheRecordState() async throws {
        let harness = try HostHarness(desktop: .fake(volume: Self.playing))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        let first = device.inbox()
        #expect(
            first == [
                .layout(.init(layout: .empty, profile: "Default")),
                .profiles(.init(names: ["Default"], current: "Default", shown: "Default", follows: true)),
                .volume(.init(available: true, level: 0.25, muted: false)),
                .recordState(.init(state: .idle)),
            ])
    }

    @Test func listAppsAnswersTheWholeCatalogEvenPastTwoMegabytes() async throws {
        // 3,000 apps with 1 KB icons: past the 2 MB the seed warns about, under the 16 MiB limit.
        let icon = "data:image/png;base64," + String(repeating: "A", count: 1000)
        let catalog = (0..<3000).map { CatalogApp(id: "app\($0).desktop", name: "App \($0)", icon: icon) }
        let harness = try HostHarness(
            desktop: .fake(apps: catalog + [CatalogApp(id: "x.desktop", name: "X", icon: nil)]))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        _ = device.inbox()
        await device.send(.listApps(.init()), to: harness.host)
        let replies = await collect(&device) { !$0.isEmpty }
        guard case .apps(let apps) = replies.first else {
            Issue.record("no apps reply: \(replies)")
            return
        }
        #expect(apps.apps.count == 3001)
        #expect(apps.apps[7] == .init(id: "app7.desktop", name: "App 7", icon: icon))
        #expect(apps.apps.last == .init(id: "x.desktop", name: "X", icon: nil))
        #expect(harness.link.sent(to: device.id).last!.utf8.count > 2_000_000)
    }

    @Test func aCatalogTooLargeToSealLeavesOutTheLargestIconsFirst() throws {
        let small = "data:image/png;base64," + String(repeating: "A", count: 100)
        let huge = "data:image/svg+xml;base64," + String(repeating: "B", count: 50_000)
        let apps: [HostMessage.AppEntry] = [
            .init(id: "a.desktop", name: "A", icon: small), .init(id: "b.desktop", name: "B", icon: huge),
            .init(id: "c.desktop", name: "C", icon: small),
        ]
        let whole = AppsMessage.encode(apps, limit: 1_000_000)
        #expect(try HostMessage.decode(whole) == .apps(.init(apps: apps)))
        let trimmed = AppsMessage.encode(apps, limit: 10_000)
        #expect(trimmed.count <= 10_000)
        var expected = apps
        expected[1].icon = nil
        #expect(try HostMessage.decode(trimmed) == .apps(.init(apps: expected)))
    }

    @Test func devicesAskingAtOnceShareOneScan() async throws {
        let scans = Mutex(0)
        let catalog = AppCatalog {
            scans.withLock { $0 += 1 }
            try? await Task.sleep(for: .milliseconds(200))
            return [CatalogApp(id: "a.desktop", name: "A", icon: nil)]
        }
        var desktop = HostDesktop.fake()
        desktop.apps = catalog
        let harness = try HostHarness(desktop: desktop)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        _ = (a.inbox(), b.inbox())
        await a.send(.listApps(.init()), to: harness.host)
        await b.send(.listApps(.init()), to: harness.host)
        let fromA = await collect(&a) { !$0.isEmpty }
        let fromB = await collect(&b) { !$0.isEmpty }
        #expect(fromA == [.apps(.init(apps: [.init(id: "a.desktop", name: "A")]))])
        #expect(fromB == fromA)
        #expect(scans.withLock { $0 } == 1)
    }

    @Test func setVolumeAppliesAndTheChangeReachesEveryDevice() async throws {
        let desktop = HostDesktop.fake(volume: Self.playing)
        let harness = try HostHarness(desktop: desktop)
        let host = harness.host
        let follower = Task { await host.followVolume() }
        defer { follower.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        _ = (a.inbox(), b.inbox())
        await a.send(.setVolume(.init(level: 0.75)), to: harness.host)
        await a.send(.toggleMute(.init()), to: harness.host)
        let muted = HostMessage.Volume(available: true, level: 0.75, muted: true)
        for device in [a, b] {
            var device = device
            let seen = volumes(await collect(&device) { volumes($0).last == muted })
            #expect(seen == [.init(available: true, level: 0.75, muted: false), muted])
        }
        #expect(desktop.volume.current() == VolumeState(available: true, level: 0.75, muted: true))
    }

    @Test func aSliderDragIsAppliedInOrderAndEndsAtItsLastLevel() async throws {
        var desktop = HostDesktop.fake(volume: Self.playing)
        let applied = Mutex<[Double]>([])
        let fake = desktop.volume
        desktop.volume.setLevel = { level in
            // A sound server that answers at varying speeds: jobs started together would finish out of order.
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...500)))
            applied.withLock { $0.append(level) }
            return await fake.setLevel(level)
        }
        let harness = try HostHarness(desktop: desktop)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        let levels = (1...50).map { Double($0) / 100 }
        for level in levels { await a.send(.setVolume(.init(level: level)), to: harness.host) }
        for _ in 0..<10_000 where applied.withLock({ $0.count }) < levels.count {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(applied.withLock { $0 } == levels)
        #expect(desktop.volume.current().level == 0.5)
    }

    @Test func aChangeMadeElsewhereReachesEveryDeviceOnce() async throws {
        let desktop = HostDesktop.fake(volume: Self.playing)
        let harness = try HostHarness(desktop: desktop)
        let host = harness.host
        let follower = Task { await host.followVolume() }
        defer { follower.cancel() }
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        _ = (a.inbox(), b.inbox())
        let louder = VolumeState(available: true, level: 0.9, muted: false)
        desktop.volumeFeed.report(louder)
        desktop.volumeFeed.report(louder)  // the sound server repeating itself is not news
        desktop.volumeFeed.report(.unavailable)
        desktop.volumeFeed.report(Self.playing)
        let expected: [HostMessage.Volume] = [
            .init(available: true, level: 0.9, muted: false), .init(available: false, level: 0, muted: false),
            .init(available: true, level: 0.25, muted: false),
        ]
        #expect(volumes(await collect(&a) { volumes($0).count >= 3 }) == expected)
        #expect(volumes(await collect(&b) { volumes($0).count >= 3 }) == expected)
    }

    @Test func withoutASoundServerAChangeFailsForItsSenderOnly() async throws {
        let harness = try HostHarness(desktop: .fake(volume: .unavailable))
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        #expect(volumes(a.inbox()) == [.init(available: false, level: 0, muted: false)])
        _ = b.inbox()
        await a.send(.setVolume(.init(level: 0.5)), to: harness.host)
        let replies = await collect(&a) { $0.count >= 2 }
        #expect(
            replies == [
                .error(.init(code: .unavailable, message: "no sound server", request: "setVolume")),
                .volume(.init(available: false, level: 0, muted: false)),
            ])
        await a.send(.press(.init(page: 0, index: 0)), to: harness.host)
        #expect(await collect(&a) { !$0.isEmpty }.count == 1)
        #expect(b.inbox().isEmpty)
    }

    @Test func keypadKeysAreTypedInOrderAndEachIsAnswered() async throws {
        let typed = Mutex<[KeypadKey]>([])
        let harness = try HostHarness(desktop: .fake(typed: { key in typed.withLock { $0.append(key) } }))
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        _ = a.inbox()
        let keys: [DeviceMessage.Keypad.Key] = [.digit1, .digit2, .plus, .digit3, .enter, .backspace, .point]
        for key in keys { await a.send(.keypad(.init(key: key)), to: harness.host) }
        let replies = await collect(&a) { $0.count >= keys.count }
        #expect(replies == Array(repeating: .keypadResult(.init(ok: true)), count: keys.count))
        #expect(typed.withLock { $0 } == [.digit1, .digit2, .plus, .digit3, .enter, .backspace, .point])
    }

    @Test func withoutADisplayTheKeypadFailsClearlyAndTheHostKeepsServing() async throws {
        let harness = try HostHarness(desktop: .fake(keyResult: .failed("no display")))
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        _ = a.inbox()
        await a.send(.keypad(.init(key: .digit7)), to: harness.host)
        #expect(await collect(&a) { !$0.isEmpty } == [.keypadResult(.init(ok: false, reason: "no display"))])
        await a.send(.press(.init(page: 0, index: 0)), to: harness.host)
        #expect(
            await collect(&a) { !$0.isEmpty } == [
                .pressResult(.init(page: 0, index: 0, ok: false, reason: "empty slot"))
            ])
    }

    @Test func aStaleSlotIsAClearFailure() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        _ = a.inbox()
        let cases: [(Int, Int, String)] = [
            (3, 0, "page 3 does not exist (1 pages)"), (-1, 0, "page -1 does not exist (1 pages)"),
            (0, 12, "slot 12 does not exist (0…11)"), (0, -1, "slot -1 does not exist (0…11)"),
            (0, 11, "empty slot"),
        ]
        for (page, index, reason) in cases {
            await a.send(.press(.init(page: page, index: index)), to: harness.host)
            #expect(a.inbox() == [.pressResult(.init(page: page, index: index, ok: false, reason: reason))])
        }
    }

    @Test func statusNamesTheCommandLogFolder() async throws {
        var desktop = HostDesktop.fake()
        desktop.commandLogs = "/home/me/.local/state/touchdeck/logs"
        let harness = try HostHarness(desktop: desktop)
        let status = await harness.host.control(ControlRequest(command: .status))
        #expect(status.commandLogs == "/home/me/.local/state/touchdeck/logs")
    }
}
