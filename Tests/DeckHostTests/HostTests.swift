import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

@Suite struct HostTests {
    let blog = Button(label: "Blog", kind: .command("blogrun"))

    func layouts(_ messages: [HostMessage]) -> [DeckLayout] {
        messages.compactMap { if case .layout(let m) = $0 { m.layout } else { nil } }
    }

    @Test func authorizedDevicesGetTheLayoutFirst() async throws {
        let harness = try HostHarness()
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        #expect(layouts(device.inbox()) == [.empty])
    }

    @Test func anEditIsSavedAndReachesEveryAuthorizedDeviceOnly() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        let stranger = await harness.open()
        await harness.send(.hello(.init(name: "stranger")), on: stranger)
        _ = (a.inbox(), b.inbox())
        let before = harness.link.sent(to: stranger).count

        await a.send(.setButton(.init(page: 0, index: 3, button: blog)), to: harness.host)
        #expect(layouts(a.inbox()).first?.button(page: 0, index: 3) == blog)
        #expect(layouts(b.inbox()).first?.button(page: 0, index: 3) == blog)
        #expect(harness.link.sent(to: stranger).count == before)
        let saved = try ConfigStore(directory: harness.dir.url).load(
            .config, as: HostConfig.self, fallback: HostConfig())
        #expect(saved.layout.button(page: 0, index: 3) == blog)
    }

    @Test func theLaterEditOfASlotWins() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        let other = Button(label: "Files", kind: .app(appId: "org.gnome.Nautilus.desktop"))
        await a.send(.setButton(.init(page: 0, index: 0, button: blog)), to: harness.host)
        await b.send(.setButton(.init(page: 0, index: 0, button: other)), to: harness.host)
        #expect(layouts(a.inbox()).last?.button(page: 0, index: 0) == other)
        #expect(layouts(b.inbox()).last?.button(page: 0, index: 0) == other)
    }

    @Test func aRefusedEditIsAnErrorForItsSenderOnly() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        var b = try await harness.authorize(try await harness.pair(name: "B"))
        _ = (a.inbox(), b.inbox())
        await a.send(.clearButton(.init(page: 4, index: 0)), to: harness.host)
        // The error names what it answers, so the device knows which wait it ends.
        #expect(
            a.inbox() == [
                .error(.init(code: .badMessage, message: "page 4 does not exist (1 pages)", request: "clearButton"))
            ])
        #expect(b.inbox().isEmpty)
    }

    @Test func pressingAnEmptySlotFails() async throws {
        let harness = try HostHarness()
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        _ = a.inbox()
        await a.send(.press(.init(page: 0, index: 2)), to: harness.host)
        #expect(a.inbox() == [.pressResult(.init(page: 0, index: 2, ok: false, reason: "empty slot"))])
    }

    @Test func pressingAButtonRunsItsActionAndReportsTheResult() async throws {
        let ran = NotificationLog()
        let runner = ActionRunner { launch in
            if case .command(_, let label) = launch { ran.notifier.notify(label, "") }
            return .failed("command not found")
        }
        let harness = try HostHarness(actions: runner)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        await a.send(.setButton(.init(page: 0, index: 1, button: blog)), to: harness.host)
        _ = a.inbox()
        await a.send(.press(.init(page: 0, index: 1)), to: harness.host)
        let replies = await Self.nextReplies(&a)
        #expect(replies == [.pressResult(.init(page: 0, index: 1, ok: false, reason: "command not found"))])
        #expect(ran.all.map(\.0) == ["Blog"])
    }

    @Test func aPressThatRunsOnIsAnsweredAtOnceAndAgainWithItsOutcome() async throws {
        let finish = AsyncStream<Void>.makeStream()
        let runner = ActionRunner { _ in
            .running(
                ActionOutcome {
                    for await _ in finish.stream { break }
                    return .failed("exit 3: gone wrong")
                })
        }
        let harness = try HostHarness(actions: runner)
        var a = try await harness.authorize(try await harness.pair(name: "A"))
        await a.send(.setButton(.init(page: 0, index: 1, button: blog)), to: harness.host)
        _ = a.inbox()
        await a.send(.press(.init(page: 0, index: 1)), to: harness.host)
        // Started, not yet a success: the outcome is still to come.
        #expect(await Self.nextReplies(&a) == [.pressResult(.init(page: 0, index: 1, ok: true, running: true))])
        finish.continuation.yield()
        #expect(
            await Self.nextReplies(&a)
                == [.pressResult(.init(page: 0, index: 1, ok: false, reason: "exit 3: gone wrong"))])
    }

    /// What the host sends `device` next. Actions run in tasks of their own: wait for the answer by yielding, not
    /// by a deadline.
    static func nextReplies(_ device: inout HostHarness.Device) async -> [HostMessage] {
        var replies: [HostMessage] = []
        for _ in 0..<10_000 where replies.isEmpty {
            await Task.yield()
            replies = device.inbox()
        }
        return replies
    }

    @Test func revokingClosesTheDevicesConnectionsAndItsSecretStopsWorking() async throws {
        let harness = try HostHarness()
        let credentials = try await harness.pair(name: "Phone")
        let keep = try await harness.authorize(try await harness.pair(name: "Tablet"))
        let first = try await harness.authorize(credentials)
        let second = try await harness.authorize(credentials)
        let listing = await harness.host.control(ControlRequest(command: .revoke, name: "Phone"))
        #expect(listing.devices?.map(\.name) == ["Tablet"])
        #expect(Set(harness.link.closed) == [first.id, second.id])
        #expect(!harness.link.closed.contains(keep.id))
        let id = await harness.open()
        #expect(
            await harness.send(.hello(.init(name: "Phone", deviceId: credentials.deviceId)), on: id)
                == [.needPairing(.init(hostName: "desk"))])
        let auth = try DeviceAuth(credentials: credentials)
        #expect(await harness.send(.authStart(auth.start), on: id) == [.unauthorized(.init(reason: .unknownDevice))])
    }

    @Test func aDeviceRevokedDuringItsHandshakeIsNotAuthorized() async throws {
        let harness = try HostHarness()
        let credentials = try await harness.pair(name: "Phone")
        let id = await harness.open()
        let auth = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = await harness.send(.authStart(auth.start), on: id).last else {
            Issue.record("no challenge")
            return
        }
        _ = await harness.host.control(ControlRequest(command: .revoke, name: "Phone"))
        // Checked at authFinish: no sealed `authorized` first; the answer authStart gives an unknown device.
        #expect(
            await harness.send(.authFinish(try auth.receive(challenge).finish), on: id)
                == [.unauthorized(.init(reason: .unknownDevice))])
        #expect(harness.link.closed.isEmpty)
        let status = await harness.host.control(ControlRequest(command: .status))
        #expect(status.devices?.isEmpty == true)
    }

    @Test func aNewDeviceNotifiesOnceWhileItsPinIsLive() async throws {
        let harness = try HostHarness()
        for _ in 0..<3 {
            let id = await harness.open()
            await harness.send(.hello(.init(name: "Kitchen")), on: id)
        }
        #expect(harness.notifications.all.count == 1)
        #expect(harness.notifications.all.first?.0 == "TouchDeck: Kitchen wants to pair")
        #expect(harness.notifications.all.first?.1.range(of: #"^PIN \d{6}$"#, options: .regularExpression) != nil)
    }

    @Test func devicesListNotesOlderProtocolsAndLastSeen() async throws {
        let harness = try HostHarness()
        let credentials = try await harness.pair(name: "Old")
        let id = await harness.open()
        await harness.send(.hello(.init(protocolVersion: 1, name: "Old", deviceId: credentials.deviceId)), on: id)
        let auth = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = await harness.send(.authStart(auth.start), on: id).last else {
            Issue.record("no challenge")
            return
        }
        await harness.send(.authFinish(try auth.receive(challenge).finish), on: id)
        let status = await harness.host.control(ControlRequest(command: .status))
        #expect(status.devices?.first?.note == "(app update needed)")
        #expect(status.devices?.first?.connections == 1)
        #expect(status.devices?.first?.lastSeen != nil)
    }

    @Test func aClosedConnectionIsForgotten() async throws {
        let harness = try HostHarness()
        let device = try await harness.authorize(try await harness.pair(name: "A"))
        await harness.host.handle(.closed(device.id))
        let status = await harness.host.control(ControlRequest(command: .status))
        #expect(status.devices?.first?.connections == 0)
    }
}
