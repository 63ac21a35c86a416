import DeckDesktop
import DeckKit
import Foundation
import Synchronization
import Testing

@testable import DeckActions

@Suite struct ActionRunnerTests {
    @Test func dispatchesEachKindToItsSeam() async {
        let seen = Mutex<[String]>([])
        let runner = ActionRunner(
            apps: .fake(record: { id in seen.withLock { $0.append("app \(id)") } }),
            commands: .fake(result: .failed("exit 1"), record: { line in seen.withLock { $0.append("cmd \(line)") } }),
            terminals: .fake(record: { dir in seen.withLock { $0.append("term \(dir)") } }))
        #expect(await runner.run(.app(appId: "org.gnome.Nautilus.desktop")) == .ok)
        #expect(await runner.run(.command("blogrun", label: "Blog")) == .failed("exit 1"))
        #expect(await runner.run(.terminal(directory: "~/src")) == .ok)
        #expect(seen.withLock { $0 } == ["app org.gnome.Nautilus.desktop", "cmd blogrun", "term ~/src"])
    }

    @Test func emptyCommandFailsWithoutRunningAnything() async {
        let runner = ActionRunner(apps: .unimplemented, commands: .unimplemented, terminals: .unimplemented)
        #expect(await runner.run(.command("  ", label: "Blank")) == .failed("empty command"))
    }

    @Test func liveRunnerRunsACommandButton() async throws {
        let desk = try TempDesktop()
        let runner = ActionRunner.live(environment: desk.environment(["SHELL": "/bin/bash"]))
        let touch = Launch.command("echo pressed > \"$HOME/pressed.txt\"", label: "Touch")
        #expect(await runner.run(touch).settled == .ok)
        #expect(await desk.waitForFile(desk.home + "/pressed.txt") == "pressed\n")
    }

    @Test func logNamesAreSafeStableAndDistinct() {
        let blog = CommandLogName.make(label: "Blog", command: "blogrun")
        #expect(blog == CommandLogName.make(label: "Blog", command: "blogrun"))
        #expect(blog != CommandLogName.make(label: "Blog", command: "blogrun --draft"))
        #expect(blog.hasPrefix("Blog-"))
        #expect(CommandLogName.make(label: "블로그", command: "x").hasPrefix("command-"))
        #expect(!CommandLogName.make(label: "../etc/passwd", command: "x").contains("/"))
    }
}
