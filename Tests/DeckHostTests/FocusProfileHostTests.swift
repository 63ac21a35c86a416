import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Decks that follow the focused app through the actor: a device that follows the shared profile is sent the
/// focused app's profile and the shared one again when the focus leaves, a device that keeps its own is left alone,
/// `setProfileApps` needs edit permission and is saved, and the CLI's `profile apps` adds and removes. The desktop's
/// side is `Tests/live/test_focus_profiles_live.py` (X11) and `Tests/wayland/test_sway_focus_live.py`.
@Suite struct FocusProfileHostTests {
    private static func layout(_ messages: [HostMessage]) -> HostMessage.Layout? {
        for case .layout(let layout) in messages.reversed() { return layout }
        return nil
    }

    private static func profiles(_ messages: [HostMessage]) -> HostMessage.Profiles? {
        for case .profiles(let profiles) in messages.reversed() { return profiles }
        return nil
    }

    private static func apps(_ harness: HostHarness) throws -> [String: [String]] {
        let profiles = try HostConfig.read(harness).profiles.profiles
        return Dictionary(uniqueKeysWithValues: profiles.map { ($0.name, $0.apps) })
    }

    @Test func followersSwitchWithTheFocusAndBackKeepersStay() async throws {
        let harness = try HostHarness()
        var follower = try await harness.authorize(try await harness.pair(name: "Tablet"))
        var keeper = try await harness.authorize(try await harness.pair(name: "Phone"))
        await follower.send(.addProfile(.init(name: "Editing")), to: harness.host)
        await follower.send(.setProfileApps(.init(name: "editing", apps: ["gedit"])), to: harness.host)
        await keeper.send(.followProfile(.init(follow: false)), to: harness.host)
        _ = follower.inbox()
        _ = keeper.inbox()
        #expect(try Self.apps(harness) == ["Default": [], "Editing": ["gedit"]])

        await harness.host.focusChanged(["gedit", "Gedit"])
        let switched = follower.inbox()
        #expect(Self.layout(switched)?.profile == "Editing")
        #expect(Self.profiles(switched)?.focusProfile == "Editing" && Self.profiles(switched)?.current == "Default")
        #expect(Self.profiles(switched)?.apps == ["Editing": ["gedit"]])
        #expect(Self.layout(keeper.inbox()) == nil, "a device that keeps its own profile stays")

        await harness.host.focusChanged(["xterm", "XTerm"])
        #expect(Self.layout(follower.inbox())?.profile == "Default", "back to the profile it was on")
        #expect(try HostConfig.read(harness).profiles.current == "Default", "the focus never changed the saved one")
    }

    @Test func aSwitchByHandWinsUntilTheFocusMoves() async throws {
        let harness = try HostHarness()
        var tablet = try await harness.authorize(try await harness.pair(name: "Tablet"))
        await tablet.send(.addProfile(.init(name: "Editing")), to: harness.host)
        await tablet.send(.addProfile(.init(name: "Other")), to: harness.host)
        await tablet.send(.setProfileApps(.init(name: "Editing", apps: ["gedit"])), to: harness.host)
        await harness.host.focusChanged(["gedit"])
        await tablet.send(.switchProfile(.init(name: "Other")), to: harness.host)
        #expect(Self.layout(tablet.inbox())?.profile == "Other")
        await harness.host.focusChanged(["xterm"])
        #expect(Self.layout(tablet.inbox()) == nil, "Other stays: it is the shared one now")
        await harness.host.focusChanged(["gedit"])
        #expect(Self.layout(tablet.inbox())?.profile == "Editing")
    }

    @Test func theCLIAddsAndRemovesAppsAndBadOnesChangeNothing() async throws {
        let harness = try HostHarness()
        var tablet = try await harness.authorize(try await harness.pair(name: "Tablet"))
        await tablet.send(.addProfile(.init(name: "Web")), to: harness.host)
        var request = ControlRequest(command: .profileApps, name: "web")
        request.action = "add"
        request.apps = ["firefox.desktop", "Navigator"]
        let added = await harness.host.control(request)
        #expect(added.name == "Web" && added.profiles?.last?.apps == ["firefox.desktop", "Navigator"])
        await harness.host.focusChanged(["firefox"])
        #expect(Self.layout(tablet.inbox())?.profile == "Web")
        request.action = "remove"
        request.apps = ["FIREFOX"]
        #expect(await harness.host.control(request).profiles?.last?.apps == ["Navigator"])
        #expect(Self.layout(tablet.inbox())?.profile == "Default", "firefox no longer names Web")

        let before = try harness.dir.read("config.json")
        request.action = "add"
        request.apps = (0..<16).map { "app\($0)" }
        #expect(await harness.host.control(request).error == "a profile names at most 16 apps")
        request.name = "Nope"
        #expect(await harness.host.control(request).error == "no profile is called Nope")
        #expect(try harness.dir.read("config.json") == before)
    }

    @Test func aDeviceThatMayNotEditCannotSetApps() async throws {
        let harness = try HostHarness()
        var tablet = try await harness.authorize(try await harness.pair(name: "Tablet"))
        #expect(await harness.host.control(ControlRequest(command: .allowEdit, name: "Tablet", on: false)).ok)
        _ = tablet.inbox()
        await tablet.send(.setProfileApps(.init(name: "Default", apps: ["gedit"])), to: harness.host)
        #expect(
            tablet.inbox().contains {
                if case .error(let e) = $0 { e.code == .notAllowed && e.request == "setProfileApps" } else { false }
            })
        #expect(!FileManager.default.fileExists(atPath: harness.dir.url.appendingPathComponent("config.json").path))
    }
}

extension HostConfig {
    /// The config the host saved in the harness's folder.
    fileprivate static func read(_ harness: HostHarness) throws -> HostConfig {
        try JSONDecoder().decode(HostConfig.self, from: Data(try harness.dir.read("config.json").utf8))
    }
}
