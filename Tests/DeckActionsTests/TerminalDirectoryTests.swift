import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

/// A relative terminal `directory` means a folder under home, not under wherever the daemon was started.
@Suite struct TerminalDirectoryTests {
    @Test(arguments: [
        ("proj", "/home/u/proj"), ("proj/../src", "/home/u/src"), ("./notes", "/home/u/notes"), ("", "/home/u"),
        ("~", "/home/u"), ("~/proj", "/home/u/proj"), ("/srv/data", "/srv/data"),
    ])
    func directoriesResolveAgainstHome(directory: String, folder: String) {
        let environment = HostEnvironment(["HOME": "/home/u", "PATH": "/usr/bin:/bin"])
        #expect(TerminalLauncher.folder(directory, in: environment) == folder)
    }

    @Test func aRelativeDirectoryOpensTheTerminalUnderHome() async throws {
        let desk = try TempDesktop()
        try desk.script("recorder", LaunchTests.recorderBody)
        try FileManager.default.createDirectory(atPath: desk.home + "/proj", withIntermediateDirectories: true)
        let record = desk.root + "/terminal.txt"
        let environment = desk.environment(["TERMINAL": desk.bin + "/recorder", "RECORD_TO": record])
        // The test process's own working directory has no `proj`: only home does.
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/proj"))
        #expect(await TerminalLauncher.live(environment: environment).open("proj") == .ok)
        #expect(await desk.waitForFile(record) == "\(desk.home)/proj\nown-session\n")
    }
}
