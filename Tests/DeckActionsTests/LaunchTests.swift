import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

@Suite struct LaunchTests {
    /// A script that records its working dir, arguments and whether it leads its own session.
    static let recorderBody = """
        out="$RECORD_TO"
        pwd > "$out.tmp"
        for arg in "$@"; do echo "arg:$arg" >> "$out.tmp"; done
        sid=$(cut -d' ' -f6 /proc/$$/stat)
        [ "$sid" = "$$" ] && echo "own-session" >> "$out.tmp"
        mv "$out.tmp" "$out"
        """

    func desktop() throws -> TempDesktop {
        let desk = try TempDesktop()
        try desk.script("recorder", Self.recorderBody)
        try FileManager.default.createDirectory(atPath: desk.root + "/work dir", withIntermediateDirectories: true)
        return desk
    }

    func entry(_ exec: String, _ extra: String = "") -> String {
        "[Desktop Entry]\nType=Application\nName=Recorder\nExec=\(exec)\n\(extra)\n"
    }

    @Test func appEntryLaunchesDetachedInItsPath() async throws {
        let desk = try desktop()
        try desk.write(
            "usr/share/applications/rec.desktop",
            entry(#"recorder %U --flag "two words" %c"#, "Path=\(desk.root)/work dir"))
        let record = desk.root + "/app.txt"
        let environment = desk.environment(["RECORD_TO": record])
        let result = await AppLauncher.live(environment: environment, terminal: .unimplemented).launch("rec.desktop")
        #expect(result == .ok)
        let text = await desk.waitForFile(record)
        #expect(text == "\(desk.root)/work dir\narg:--flag\narg:two words\narg:Recorder\nown-session\n")
    }

    @Test func terminalEntriesRunInTheTerminal() async throws {
        let desk = try desktop()
        try desk.write("usr/share/applications/tui.desktop", entry("recorder --tui", "Terminal=true"))
        let record = desk.root + "/term.txt"
        try desk.script("fake-term", "RECORD_TO=\"$RECORD_TO\" exec \(desk.bin)/recorder \"$@\"")
        let environment = desk.environment(["RECORD_TO": record, "TERMINAL": "fake-term"])
        let launcher = AppLauncher.live(environment: environment, terminal: .live(environment: environment))
        let result = await launcher.launch("tui.desktop")
        #expect(result == .ok)
        #expect(
            await desk.waitForFile(record) == "\(desk.home)\narg:-e\narg:\(desk.bin)/recorder\narg:--tui\nown-session\n"
        )
    }

    @Test(arguments: [
        (
            "noexec.desktop", "[Desktop Entry]\nType=Application\nName=X\n",
            "broken desktop entry noexec.desktop: no Exec line"
        ),
        (
            "quote.desktop", "[Desktop Entry]\nType=Application\nName=X\nExec=recorder \"open\n",
            "broken desktop entry quote.desktop: unterminated quote in Exec"
        ),
        (
            "link.desktop", "[Desktop Entry]\nType=Link\nName=X\nURL=x\n",
            "broken desktop entry link.desktop: not an application"
        ),
        (
            "gone.desktop", "[Desktop Entry]\nType=Application\nName=X\nExec=no-such-program-touchdeck %f\n",
            "program not found: no-such-program-touchdeck"
        ),
    ])
    func brokenEntriesFail(id: String, text: String, reason: String) async throws {
        let desk = try desktop()
        try desk.write("usr/share/applications/" + id, text)
        let result = await AppLauncher.live(environment: desk.environment(), terminal: .unimplemented).launch(id)
        #expect(result == .failed(reason))
    }

    @Test func unknownIDFails() async throws {
        let desk = try desktop()
        let result = await AppLauncher.live(environment: desk.environment(), terminal: .unimplemented).launch(
            "nope.desktop")
        #expect(result == .failed("app not found: nope.desktop"))
    }
}
