import Foundation
import Testing

@testable import DeckActions

/// The live tests run under `scripts/with-desktop`; outside it they fail (never skip) with this hint.
enum LiveDesktop {
    static func require(_ name: String) throws -> String {
        try #require(
            ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 },
            "\(name) is not set: run the live tests under scripts/with-desktop (make test-swift does)")
    }

    /// Runs a tool to completion and returns its stdout (stderr is appended, for failure messages).
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

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

/// Collects callback values and lets a test wait for one that matches, giving up (and failing) after
/// a generous limit instead of hanging when the value never comes.
final class Inbox<Value: Sendable>: Sendable {
    private let stream: AsyncStream<Value>
    let continuation: AsyncStream<Value>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    }

    func send(_ value: Value) { continuation.yield(value) }

    func next(where matches: @escaping @Sendable (Value) -> Bool, seconds: Double = 15) async -> Value? {
        let stream = self.stream
        return await withTaskGroup(of: Value?.self) { group in
            group.addTask {
                for await value in stream where matches(value) { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
