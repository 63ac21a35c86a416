import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Deleting and renaming profiles through the actor (issue 22): a device that keeps a renamed profile keeps it, one
/// that follows the shared one follows it, and the refusals change nothing. The CLI's side is
/// `Tests/live/test_profile_edits_live.py`.
@Suite struct ProfileRenameHostTests {
    private static func profiles(_ messages: [HostMessage]) -> HostMessage.Profiles? {
        for case .profiles(let profiles) in messages.reversed() { return profiles }
        return nil
    }

    private static func layout(_ messages: [HostMessage]) -> HostMessage.Layout? {
        for case .layout(let layout) in messages.reversed() { return layout }
        return nil
    }

    @Test func devicesThatKeepOrFollowARenamedProfileGoOnShowingIt() async throws {
        let harness = try HostHarness()
        var keeper = try await harness.authorize(try await harness.pair(name: "Phone"))
        var follower = try await harness.authorize(try await harness.pair(name: "Tablet"))
        await keeper.send(.addProfile(.init(name: "Small")), to: harness.host)
        await keeper.send(.addProfile(.init(name: "Big")), to: harness.host)
        await keeper.send(.switchProfile(.init(name: "Small")), to: harness.host)
        await keeper.send(.followProfile(.init(follow: false)), to: harness.host)  // keeps Small, the rest go back
        await follower.send(.switchProfile(.init(name: "Big")), to: harness.host)
        _ = keeper.inbox()
        _ = follower.inbox()

        await keeper.send(.renameProfile(.init(name: "small", newName: "Pocket")), to: harness.host)
        let kept = keeper.inbox()
        #expect(Self.layout(kept)?.profile == "Pocket")
        #expect(
            Self.profiles(kept)
                == HostMessage.Profiles(
                    names: ["Default", "Pocket", "Big"], current: "Big", shown: "Pocket", follows: false))
        #expect(Self.layout(follower.inbox()) == nil, "the follower's deck did not change")

        var request = ControlRequest(command: .renameProfile, name: "Big", newName: "Desk")
        #expect(await harness.host.control(request).name == "Desk")
        let followed = follower.inbox()
        #expect(Self.layout(followed)?.profile == "Desk")
        #expect(Self.profiles(followed)?.current == "Desk" && Self.profiles(followed)?.follows == true)

        // Refused: a name another profile has, the last profile; nothing changes.
        let before = try harness.dir.read("config.json")
        request.name = "Desk"
        request.newName = "pocket"
        #expect(await harness.host.control(request).error == "a profile is already called Pocket")
        await keeper.send(.renameProfile(.init(name: "Gone", newName: "X")), to: harness.host)
        #expect(
            keeper.inbox().contains {
                if case .error(let e) = $0 { e.message == "no profile is called Gone" } else { false }
            })
        #expect(try harness.dir.read("config.json") == before)

        // Deleting the shared current one makes the first of the others current; the last one stays.
        #expect(await harness.host.control(ControlRequest(command: .deleteProfile, name: "desk")).name == "Desk")
        #expect(Self.layout(follower.inbox())?.profile == "Default")
        #expect(await harness.host.control(ControlRequest(command: .deleteProfile, name: "Pocket")).ok)
        #expect(Self.layout(keeper.inbox())?.profile == "Default", "a deleted kept profile: the shared one")
        let last = await harness.host.control(ControlRequest(command: .deleteProfile, name: "Default"))
        #expect(last.error == "the last profile cannot be deleted")
    }
}
