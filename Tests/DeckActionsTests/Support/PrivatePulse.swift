import DeckDesktop
import DeckTesting
import Foundation
import Testing

@testable import DeckActions

/// A PulseAudio of the test's own (null sink, private socket), so volume tests never disturb each other
/// or other suites sharing the with-desktop server; stopped by PID.
final class PrivatePulse {
    let dir: String
    var socket: String { dir + "/native" }
    var server: String { "unix:" + socket }
    private var child: ChildExit?

    init() throws {
        dir = NSTemporaryDirectory() + "touchdeck-pulse-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir + "/home", withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Started with `DetachedProcess`, not `Foundation.Process`: pulseaudio closes every inherited
    /// descriptor at startup, which Foundation reads as "exited" and then blocks its process-watching
    /// thread in waitpid on a server that keeps running.
    func start() async throws {
        let arguments = [
            "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--system=no", "--exit-idle-time=-1",
            "--use-pid-file=no", "--disallow-exit", "-L", "module-null-sink sink_name=test_sink", "-L",
            "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ]
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir + "/home", "XDG_RUNTIME_DIR": dir, "PULSE_RUNTIME_PATH": dir,
            "PULSE_STATE_PATH": dir + "/home",
        ]
        child = try DetachedProcess.spawn(arguments, environment: environment, directory: dir)
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(FileManager.default.fileExists(atPath: socket), "pulseaudio did not start")
    }

    func stop() {
        guard let child else { return }
        kill(child.pid, SIGTERM)
        while child.ended == nil { usleep(5000) }
        try? FileManager.default.removeItem(atPath: socket)
        self.child = nil
    }

    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        try LiveDesktop.run(["pactl", "--server=\(server)"] + arguments)
    }
}
