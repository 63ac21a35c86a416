import CAvahi
import DeckActions
import DeckDesktop
import DeckSound
import Foundation

/// `touchdeck doctor`: checks what the features need and says how to fix what is missing.
public struct Doctor {
    /// One check's outcome.
    public struct Check: Codable, Equatable, Sendable {
        public var name: String
        public var ok: Bool
        public var detail: String
        /// What to do when it failed.
        public var fix: String
    }

    let configDirectory: URL
    let environment: [String: String]

    public init(configDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configDirectory = configDirectory
        self.environment = environment
    }

    /// Runs every check. The desktop and the sound server are the running daemon's when one answers (they are
    /// what it uses); only without a daemon are they this process's own.
    public func run() -> [Check] {
        let daemon = askDaemon()
        return sessionChecks(daemon) + [mdns()] + certificateChecks() + [daemonCheck(daemon)]
    }

    /// `touchdeck doctor --fix`: undoes what a killed host left behind (the sound routed to our sink). Leaves
    /// it to a running daemon, which owns the routing. Says what it did.
    public func fix() -> String {
        guard askDaemon() == nil else { return "the daemon is running: it owns the sound routing, nothing to fix" }
        let store = RoutingRecordStore.file(in: HostDesktop.soundRoutingFolder(HostEnvironment(environment)))
        do {
            let undone = try SoundCapture.undoLeftover(store: store)
            return undone
                ? "gave the sound back to the speakers (a host that was killed had left it routed to TouchDeck)"
                : "nothing to fix: the sound is not routed to TouchDeck"
        } catch {
            return "could not reach the sound server to check the routing: \(error)"
        }
    }

    /// The daemon's `status`, with its session checks; nil when none answers for `configDirectory`.
    func askDaemon() -> ControlResponse? {
        var request = ControlRequest(command: .status)
        request.session = true
        return try? ControlClient.send(request, configDirectory: configDirectory, environment: environment)
    }

    func sessionChecks(_ daemon: ControlResponse?) -> [Check] {
        // A daemon from before `session` answers without it: then this shell's session is the best guess.
        guard let reported = daemon?.session else { return SessionChecks(environment: environment).run() }
        return reported.map { check in
            var marked = check
            marked.detail += " (in the running daemon)"
            return marked
        }
    }

    private func mdns() -> Check {
        guard let poll = avahi_threaded_poll_new() else {
            return Check(name: "mDNS", ok: false, detail: "no event loop", fix: "install avahi-daemon")
        }
        defer { avahi_threaded_poll_free(poll) }
        var error: Int32 = 0
        let client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), nil, nil, &error)
        guard let client else {
            return Check(
                name: "mDNS", ok: false, detail: String(cString: avahi_strerror(error)),
                fix:
                    "install and start avahi-daemon (`sudo systemctl enable --now avahi-daemon`); devices can still use the address"
            )
        }
        let version = avahi_client_get_version_string(client).map { String(cString: $0) } ?? "Avahi"
        avahi_client_free(client)
        return Check(name: "mDNS", ok: true, detail: version, fix: "")
    }

    private func daemonCheck(_ daemon: ControlResponse?) -> Check {
        Check(
            name: "daemon", ok: daemon != nil,
            detail: daemon != nil ? "answering" : "not running for \(configDirectory.path)",
            fix: "start it: `touchdeck serve` (or `systemctl --user enable --now touchdeck`)")
    }

    /// Runs `tool` with `environment` (nil: this process's); its exit status and standard output.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (127, "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
