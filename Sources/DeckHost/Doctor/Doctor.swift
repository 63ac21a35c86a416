import CAvahi
import CX11
import DeckX11
import Foundation

/// `touchdeck doctor`: checks what the features need and says how to fix what is missing.
public struct Doctor {
    /// One check's outcome.
    public struct Check: Equatable, Sendable {
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

    /// Runs every check.
    public func run() -> [Check] {
        desktopChecks() + [soundServer(), mdns()] + certificateChecks() + [daemon()]
    }

    func displayChecks() -> [Check] {
        let fixDisplay =
            "run touchdeck inside your desktop session (DISPLAY must be set), or use `make run` for a private Xvfb"
        guard let name = environment["DISPLAY"], !name.isEmpty else {
            let missing = Check(name: "display", ok: false, detail: "DISPLAY is not set", fix: fixDisplay)
            return [missing, skipped("XTest"), skipped("XShm")]
        }
        guard let display = XDisplay(name: name) else {
            let failed = Check(name: "display", ok: false, detail: "cannot open \(name)", fix: fixDisplay)
            return [failed, skipped("XTest"), skipped("XShm")]
        }
        return [
            Check(name: "display", ok: true, detail: "\(name) is open", fix: ""),
            extensionCheck(
                display, "XTEST", label: "XTest", fix: "enable the XTEST extension (Xvfb and Xorg have it by default)"),
            extensionCheck(
                display, "MIT-SHM", label: "XShm",
                fix: "enable MIT-SHM; screen capture falls back to slow copies without it"),
        ]
    }

    private func extensionCheck(_ display: XDisplay, _ name: String, label: String, fix: String) -> Check {
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        let present = XQueryExtension(display.handle, name, &opcode, &event, &error) != 0
        return Check(name: label, ok: present, detail: present ? "present" : "\(name) is missing", fix: fix)
    }

    private func skipped(_ name: String) -> Check {
        Check(name: name, ok: false, detail: "not checked: no display", fix: "fix the display first")
    }

    private func soundServer() -> Check {
        let (status, output) = Self.run("pactl", ["info"])
        let server = output.split(separator: "\n").first { $0.hasPrefix("Server Name:") }.map(String.init) ?? ""
        return Check(
            name: "sound server", ok: status == 0, detail: status == 0 ? server : "pactl cannot reach a server",
            fix:
                "start PulseAudio or PipeWire's pulse server (`systemctl --user start pipewire-pulse`); install pulseaudio-utils for pactl"
        )
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

    private func daemon() -> Check {
        let running =
            (try? ControlClient.send(ControlRequest(command: .status), configDirectory: configDirectory)) != nil
        return Check(
            name: "daemon", ok: running, detail: running ? "answering" : "not running for \(configDirectory.path)",
            fix: "start it: `touchdeck serve` (or `systemctl --user enable --now touchdeck`)")
    }

    static func run(_ tool: String, _ arguments: [String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (127, "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
