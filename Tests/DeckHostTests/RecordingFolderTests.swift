import DeckActions
import DeckDesktop
import Foundation
import Testing

@testable import DeckHost

/// The recordings folder is `$(xdg-user-dir VIDEOS)/TouchDeck`: for each way the videos folder can be given
/// (the environment, `user-dirs.dirs`, both, neither) it is what the real `xdg-user-dir` answers, except that
/// where xdg-user-dir falls back to `$HOME` the recordings go to `~/Videos`.
@Suite struct RecordingFolderTests {
    let home = TempDir()

    var configHome: String { home.url.appendingPathComponent(".config").path }

    func writeUserDirs(_ line: String) throws {
        try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: configHome + "/user-dirs.dirs"))
    }

    func variables(videos: String?) -> [String: String] {
        var variables = ["HOME": home.url.path, "XDG_CONFIG_HOME": configHome, "PATH": "/usr/bin:/bin"]
        variables["XDG_VIDEOS_DIR"] = videos
        return variables
    }

    func folder(_ variables: [String: String]) -> String {
        RecordingLibrary.live(environment: HostEnvironment(variables)).folder.path
    }

    /// What `xdg-user-dir VIDEOS` prints under `variables`.
    func xdgUserDir(_ variables: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-user-dir")
        process.arguments = ["VIDEOS"]
        process.environment = variables
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func onlyTheEnvironmentVariable() throws {
        let variables = variables(videos: "/srv/clips")
        #expect(try xdgUserDir(variables) == "/srv/clips")
        #expect(folder(variables) == "/srv/clips/TouchDeck")
    }

    @Test func onlyUserDirsFile() throws {
        try writeUserDirs("XDG_VIDEOS_DIR=\"$HOME/Filme\"")
        let variables = variables(videos: nil)
        #expect(try xdgUserDir(variables) == home.url.path + "/Filme")
        #expect(folder(variables) == home.url.path + "/Filme/TouchDeck")
    }

    /// xdg-user-dir sources the file after the environment is set, so the file's line wins.
    @Test func theFileWinsOverTheEnvironment() throws {
        try writeUserDirs("XDG_VIDEOS_DIR=\"$HOME/Filme\"")
        let variables = variables(videos: "/srv/clips")
        #expect(try xdgUserDir(variables) == home.url.path + "/Filme")
        #expect(folder(variables) == home.url.path + "/Filme/TouchDeck")
    }

    @Test func aFileWithoutVideosLeavesTheEnvironmentVariable() throws {
        try writeUserDirs("XDG_MUSIC_DIR=\"$HOME/Musik\"")
        let variables = variables(videos: "/srv/clips")
        #expect(try xdgUserDir(variables) == "/srv/clips")
        #expect(folder(variables) == "/srv/clips/TouchDeck")
    }

    /// xdg-user-dir says `$HOME` here; recordings are not dropped into the home folder itself.
    @Test func neitherGivesVideosInTheHome() throws {
        let variables = variables(videos: nil)
        #expect(try xdgUserDir(variables) == home.url.path)
        #expect(folder(variables) == home.url.path + "/Videos/TouchDeck")
    }

    @Test func aRelativeOrHomeValueInTheEnvironmentIsIgnored() {
        #expect(folder(variables(videos: "clips")) == home.url.path + "/Videos/TouchDeck")
        #expect(folder(variables(videos: home.url.path + "/")) == home.url.path + "/Videos/TouchDeck")
    }
}
