import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

@Suite struct TerminalLauncherTests {
    func desktop() throws -> (TempDesktop, String) {
        let desk = try TempDesktop()
        try desk.script("recorder", LaunchTests.recorderBody)
        try FileManager.default.createDirectory(atPath: desk.home + "/proj", withIntermediateDirectories: true)
        return (desk, desk.root + "/terminal.txt")
    }

    @Test(arguments: [("", "/"), ("~/proj", "/proj"), ("~", "/")])
    func fakeTerminalStartsInTheButtonsDirectory(directory: String, underHome: String) async throws {
        let (desk, record) = try desktop()
        let environment = desk.environment(["TERMINAL": desk.bin + "/recorder", "RECORD_TO": record])
        #expect(await TerminalLauncher.live(environment: environment).open(directory) == .ok)
        let expected = underHome == "/" ? desk.home : desk.home + underHome
        #expect(await desk.waitForFile(record) == "\(expected)\nown-session\n")
    }

    @Test func absoluteDirectoriesWork() async throws {
        let (desk, record) = try desktop()
        let environment = desk.environment(["TERMINAL": "recorder", "RECORD_TO": record])
        #expect(await TerminalLauncher.live(environment: environment).open(desk.root) == .ok)
        #expect(await desk.waitForFile(record) == "\(desk.root)\nown-session\n")
    }

    @Test func knownTerminalsGetTheirWorkingDirectoryFlag() async throws {
        let (desk, record) = try desktop()
        try desk.script("kitty", "exec \(desk.bin)/recorder \"$@\"")
        // kitty comes before x-terminal-emulator (which /usr/bin may have) in the search order.
        let environment = desk.environment(["PATH": desk.bin + ":/usr/bin:/bin", "RECORD_TO": record])
        #expect(await TerminalLauncher.live(environment: environment).open("~/proj") == .ok)
        let proj = desk.home + "/proj"
        #expect(await desk.waitForFile(record) == "\(proj)\narg:--directory\narg:\(proj)\nown-session\n")
    }

    @Test(arguments: [
        ("alacritty", ["--working-directory", "/d"], ["--working-directory", "/d", "-e", "top"]),
        ("kitty", ["--directory", "/d"], ["--directory", "/d", "top"]),
        ("foot", ["--working-directory", "/d"], ["--working-directory", "/d", "top"]),
        ("wezterm", ["start", "--cwd", "/d"], ["start", "--cwd", "/d", "--", "top"]),
        ("gnome-terminal", ["--working-directory=/d"], ["--working-directory=/d", "--", "top"]),
        ("konsole", ["--workdir", "/d"], ["--workdir", "/d", "-e", "top"]),
        ("xfce4-terminal", ["--working-directory=/d"], ["--working-directory=/d", "-x", "top"]),
        ("x-terminal-emulator", [], ["-e", "top"]),
    ])
    func flagTable(name: String, open: [String], run: [String]) {
        let terminal = TerminalProgram(path: "/usr/bin/" + name)
        #expect(terminal.openArguments("/d") == open)
        #expect(terminal.runArguments(["top"], directory: "/d") == run)
    }

    @Test func searchOrderFollowsTheList() throws {
        let (desk, _) = try desktop()
        try desk.script("konsole", "true")
        try desk.script("foot", "true")
        let found = TerminalProgram.find(in: desk.environment(["PATH": desk.bin]))
        #expect(found == .success(TerminalProgram(path: desk.bin + "/foot")))
    }

    @Test func missingDirectoryFails() async throws {
        let (desk, record) = try desktop()
        let environment = desk.environment(["TERMINAL": "recorder", "RECORD_TO": record])
        #expect(
            await TerminalLauncher.live(environment: environment).open("~/nope") == .failed("folder not found: ~/nope"))
    }

    @Test func noTerminalFails() async throws {
        let (desk, _) = try desktop()
        let environment = desk.environment(["PATH": desk.bin])
        #expect(
            await TerminalLauncher.live(environment: environment).open("")
                == .failed("no terminal found (set $TERMINAL)"))
        let named = desk.environment(["PATH": desk.bin, "TERMINAL": "ghostty"])
        #expect(
            await TerminalLauncher.live(environment: named).open("")
                == .failed("terminal not found: ghostty (from $TERMINAL)"))
    }
}
