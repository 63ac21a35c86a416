import DeckHost
import Foundation

/// One subcommand: parsed from its words, checked, then run.
protocol Command: Sendable {
    static var name: String { get }
    /// Its forms after `touchdeck`, one line each: `pair [--config-dir D]`.
    static var usage: [String] { get }
    /// What it does, one line: `touchdeck --help` shows it beside the name.
    static var summary: String { get }
    /// Each option with what it means, for `touchdeck NAME --help`.
    static var options: [(String, String)] { get }
    init(_ arguments: Arguments) throws
    func validate() throws
    func run() async throws -> Int32
}

extension Command {
    static var options: [(String, String)] { [configDirOption] }
}

/// The option every command that talks to the daemon takes.
let configDirOption = ("--config-dir D", "the daemon's config folder (default: ~/.config/touchdeck)")

enum ConfigDefaults {
    static var directory: URL { ConfigStore.defaultDirectory() }
}

/// Writes a line to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data("touchdeck: \(text)\n".utf8))
}

/// Sends a request to the daemon; prints the failure and returns nil when it cannot or refuses.
func ask(_ request: ControlRequest, _ arguments: Arguments) -> ControlResponse? {
    do {
        let response = try ControlClient.send(request, configDirectory: arguments.configDirectory)
        if !response.ok { printError(response.error ?? "the daemon refused") }
        return response.ok ? response : nil
    } catch {
        printError("\(error)")
        return nil
    }
}

struct StatusCommand: Command {
    static let name = "status"
    static let usage = ["status [--config-dir D]"]
    static let summary = "the address, the setup page, connected devices, the screen viewer and problems"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        guard let response = ask(ControlRequest(command: .status), arguments) else { return 1 }
        let url = response.url ?? ""
        print("TouchDeck on \(response.hostName ?? "?") — \(url)")
        if let setup = SetupLink.page(forApp: url) { print("Setup page for a new device: \(setup)") }
        if let fingerprint = response.caFingerprint { print("CA fingerprint (SHA-256): \(fingerprint)") }
        for notice in response.caNotices ?? [] { print("Certificate: \(notice)") }
        let connected = (response.devices ?? []).filter { $0.connections > 0 }
        print(connected.isEmpty ? "No device connected." : "Connected:")
        for device in connected {
            let note = device.note.isEmpty ? "" : " " + device.note
            print(
                "  \(device.name)\(note) — \(device.connections) connection(s), protocol \(device.protocolVersion ?? 1)"
            )
        }
        if let pending = response.pendingConnections, pending > 0 {
            print("Not yet authorized: \(pending) connection(s)")
        }
        print("Screen viewer: \(response.viewer ?? "none")")
        if let logs = response.commandLogs { print("Command button output: \(logs)/") }
        for problem in response.problems ?? [] { print("Problem: \(problem)") }
        return 0
    }
}

struct DisconnectViewerCommand: Command {
    static let name = "disconnect-viewer"
    static let usage = ["disconnect-viewer [--config-dir D]"]
    static let summary = "end screen viewing now"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws {
        try arguments.allow(options: ["config-dir"])
        guard arguments.positionals.isEmpty else { throw UsageError("disconnect-viewer takes no arguments") }
    }

    func run() async throws -> Int32 {
        guard let response = ask(ControlRequest(command: .disconnectViewer), arguments) else { return 1 }
        print("Ended screen viewing by \(response.viewer ?? "the viewer").")
        return 0
    }
}
