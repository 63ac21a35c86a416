import DeckDesktop
import Foundation

@testable import DeckActions

/// A throwaway home with its own XDG dirs; removed when the test's scope ends.
final class TempDesktop {
    let root: String
    var home: String { root + "/home" }
    var dataHome: String { root + "/home/.local/share" }
    var systemData: String { root + "/usr/share" }
    var stateHome: String { root + "/home/.local/state" }
    var bin: String { root + "/bin" }

    init() throws {
        root = NSTemporaryDirectory() + "touchdeck-test-" + UUID().uuidString
        for dir in [dataHome + "/applications", systemData + "/applications", stateHome, bin] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// An environment that sees only this temp desktop (plus the system PATH for shells and tools).
    func environment(_ extra: [String: String] = [:]) -> HostEnvironment {
        var variables = [
            "HOME": home, "XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": systemData, "XDG_STATE_HOME": stateHome,
            "XDG_CONFIG_HOME": home + "/.config", "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        let inherited = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "PULSE_SERVER"] { variables[name] = inherited[name] }
        variables.merge(extra) { $1 }
        return HostEnvironment(variables)
    }

    /// Writes `text` to `path` below the root, creating dirs.
    @discardableResult
    func write(_ relative: String, _ text: String, executable: Bool = false) throws -> String {
        try write(relative, Data(text.utf8), executable: executable)
    }

    @discardableResult
    func write(_ relative: String, _ data: Data, executable: Bool = false) throws -> String {
        let path = relative.hasPrefix("/") ? relative : root + "/" + relative
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Close-on-exec: a process another test spawns while this file is open must not inherit it for writing,
        // or executing the script fails with ETXTBSY for as long as that process lives.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        return path
    }

    /// A shell script in `bin/` (on this desktop's PATH).
    @discardableResult
    func script(_ name: String, _ body: String) throws -> String {
        try write("bin/" + name, "#!/bin/sh\n" + body + "\n", executable: true)
    }

    /// Waits (polling) until `path` exists with non-empty contents, for effects of detached processes;
    /// gives up after `seconds` so a broken action fails the test instead of hanging it.
    func waitForFile(_ path: String, seconds: Double = 30) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty { return text }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}

/// A valid 1×1 PNG, enough for an icon file.
let tinyPNG = Data(
    base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!

let tinySVG = #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>"#
