import DeckDesktop
import Foundation

/// A private `pulseaudio` with a null sink "speakers", on a socket in a temp folder; killed by PID. Its
/// tools are started with posix_spawn and reaped with waitpid (Foundation's Process hung in waitUntilExit
/// once other children had been killed).
final class PrivatePulse: @unchecked Sendable {
    let folder: URL
    var socket: String { folder.appendingPathComponent("runtime/native").path }
    var server: String { "unix:\(socket)" }
    private var daemon: pid_t = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-pulse-\(UUID())")
        for name in ["runtime", "home"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func start() -> Bool {
        unlink(socket)
        let runtime = folder.appendingPathComponent("runtime").path
        let home = folder.appendingPathComponent("home").path
        daemon = Self.spawn([
            "env", "XDG_RUNTIME_DIR=\(runtime)", "HOME=\(home)", "PULSE_RUNTIME_PATH=\(runtime)",
            "PULSE_STATE_PATH=\(home)", "pulseaudio", "-n", "--daemonize=no", "--system=no",
            "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no", "-L",
            "module-null-sink sink_name=speakers",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ])
        return daemon > 0 && waitUntil { FileManager.default.fileExists(atPath: self.socket) }
    }

    func kill() { Self.end(daemon) }

    /// Starts `arguments` (through PATH) with stdin and stdout from/to the given paths; returns its pid.
    static func spawn(_ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null") -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return 0 }
        return pid
    }

    /// SIGKILL and reap.
    static func end(_ pid: pid_t) {
        guard pid > 0 else { return }
        Foundation.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    func pactl(_ arguments: String...) -> String {
        let output = folder.appendingPathComponent("pactl.out").path
        let pid = Self.spawn(["env", "PULSE_SERVER=\(server)", "pactl"] + arguments, stdout: output)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let data = FileManager.default.contents(atPath: output) ?? Data()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pacat` playing silence (its sink renders, so the monitor delivers); returns its pid.
    func play() -> pid_t {
        Self.spawn(
            ["env", "PULSE_SERVER=\(server)", "pacat", "--raw", "--rate=48000", "--channels=2", "--format=s16le"],
            stdin: "/dev/zero")
    }
}

/// Polls `check` every 10 ms for up to 10 s (on a test's own thread); returns its last answer.
func waitUntil(_ check: () -> Bool) -> Bool {
    for _ in 0..<1000 where !check() { Thread.sleep(forTimeInterval: 0.01) }
    return check()
}
