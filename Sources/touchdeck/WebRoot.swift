import Foundation

/// Finds the web client's folder (the one holding `app/index.html` and `core/`), in this order: `--web-root`,
/// `$TOUCHDECK_WEB`, `../share/touchdeck/web` beside the executable (`make install`, the .deb), a `Web/` above the
/// executable (a build in the checkout). Nothing found is an error naming every path tried: a host without its
/// web client would answer 404 for everything.
enum WebRoot {
    /// The file a web root must hold.
    static let marker = "app/index.html"

    struct Missing: Error, CustomStringConvertible {
        let tried: [String]
        var description: String {
            "no web client found (looked for \(WebRoot.marker) in "
                + tried.joined(separator: ", ")
                + "); install it with `make install`, or pass --web-root DIR (the folder holding app/ and core/)"
        }
    }

    /// The folder to serve, or `Missing` with the candidates in the order they were tried.
    static func find(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = executableURL()
    ) throws(Missing) -> URL {
        let candidates = self.candidates(option: option, environment: environment, executable: executable)
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
            return candidate
        }
        throw Missing(tried: candidates.map(\.path))
    }

    /// Where to look. An explicit choice (`--web-root`, `$TOUCHDECK_WEB`) is the only candidate: a typo there
    /// must not quietly serve another copy.
    static func candidates(option: String?, environment: [String: String], executable: URL) -> [URL] {
        if let option { return [URL(fileURLWithPath: option).standardizedFileURL] }
        if let chosen = environment["TOUCHDECK_WEB"], !chosen.isEmpty {
            return [URL(fileURLWithPath: chosen).standardizedFileURL]
        }
        let binDirectory = executable.deletingLastPathComponent()
        var found = [binDirectory.deletingLastPathComponent().appendingPathComponent("share/touchdeck/web")]
        // A build in the checkout: .build/<triple>/<configuration>/touchdeck, so Web/ is a few folders up.
        var directory = binDirectory
        for _ in 0..<5 {
            found.append(directory.appendingPathComponent("Web"))
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return found
    }

    /// The running executable with its symbolic links resolved (`/proc/self/exe`): run from PATH, `argv[0]` is
    /// only `touchdeck`; run through a link (`make run`'s `~/.local/bin/touchdeck`), the build it points at.
    static func executableURL() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }
}
