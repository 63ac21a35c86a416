import DeckDesktop
import DeckKit
import Synchronization
import Testing

@testable import DeckActions

@Suite struct MediaKeyTests {
    @Test func aMediaKeyReachesTheMediaSeamWithItsAction() async {
        let seen = Mutex<[MediaAction]>([])
        let runner = ActionRunner(
            apps: .unimplemented, commands: .unimplemented, terminals: .unimplemented,
            media: .fake(record: { action in seen.withLock { $0.append(action) } }))
        #expect(await runner.run(.media(.playPause)) == .ok)
        #expect(await runner.run(.media(.next)) == .ok)
        #expect(seen.withLock { $0 } == [.playPause, .next])
    }

    @Test func theSeamsAnswerComesBack() async {
        let runner = ActionRunner(
            apps: .unimplemented, commands: .unimplemented, terminals: .unimplemented,
            media: .fake(result: .failed(MediaControl.noPlayer)))
        #expect(await runner.run(.media(.stop)) == .failed("no media player"))
    }
}

/// Which keys become a launch: the host's own keys (record, hotkey, text) never reach the runner.
@Suite struct LaunchKindTests {
    @Test func everyKindThatLaunchesBecomesItsLaunchAndTheHostsOwnDoNot() throws {
        let chord = try #require(KeyChord(name: "t", modifiers: [.ctrl]))
        let cases: [(Button.Kind, Launch?)] = [
            (.app(appId: "a.desktop"), .app(appId: "a.desktop")), (.command("ls"), .command("ls", label: "K")),
            (.terminal(directory: "~"), .terminal(directory: "~")), (.open("https://x"), .open("https://x")),
            (.media(.next), .media(.next)), (.record(displayId: nil, fps: 30), nil), (.hotkey(chord), nil),
            (.text("hi", enter: true), nil),
        ]
        for (kind, launch) in cases { #expect(Launch(Button(label: "K", kind: kind)) == launch, "\(kind)") }
    }
}
