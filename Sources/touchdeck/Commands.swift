import DeckHost
import DeckKit
import DeckMedia
import Foundation

/// One subcommand: parsed from its words, checked, then run.
protocol Command: Sendable {
    static var name: String { get }
    static var summary: String { get }
    init(_ arguments: Arguments) throws
    func validate() throws
    func run() async throws -> Int32
}

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

struct ServeCommand: Command {
    static let name = "serve"
    static let summary =
        "serve [--port N] [--config-dir D] [--web-root D] [--no-mdns] [--log-level debug|info] [--encoder auto|x264|vaapi|nvenc]"
    let arguments: Arguments
    var port = 52801
    var encoder = EncoderChoice.auto

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        if let text = arguments.options["port"] {
            guard let value = Int(text) else { throw UsageError("--port needs a number") }
            port = value
        }
        if let text = arguments.options["encoder"] {
            guard let choice = EncoderChoice(rawValue: text) else { throw UsageError("--encoder is auto, x264, vaapi or nvenc") }
            encoder = choice
        }
    }

    func validate() throws {
        try arguments.allow(options: ["port", "config-dir", "web-root", "log-level", "encoder"], flags: ["help", "no-mdns"])
        guard (0...65535).contains(port) else { throw UsageError("--port must be 0…65535") }
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no arguments") }
    }

    func run() async throws -> Int32 {
        let level: Logger.Level = arguments.options["log-level"] == "debug" ? .debug : .info
        let options = HostDaemon.Options(
            port: port, configDirectory: arguments.configDirectory,
            webRoot: WebRoot.find(arguments.options["web-root"]),
            advertise: !arguments.flags.contains("no-mdns"), encoder: encoder)
        try await HostDaemon(options: options, log: .standardError(minimum: level)).run()
        return 0
    }
}

struct PairCommand: Command {
    static let name = "pair"
    static let summary = "pair [--config-dir D]            show a new 6-digit PIN and a QR code of the address"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws {
        try arguments.allow(options: ["config-dir"])
        guard arguments.positionals.isEmpty else { throw UsageError("pair takes no arguments") }
    }

    func run() async throws -> Int32 {
        guard let response = ask(ControlRequest(command: .pair), arguments), let pin = response.pin else { return 1 }
        let url = response.url ?? ""
        print("PIN: \(pin)   (valid for \((response.expiresIn ?? 300) / 60) minutes, 5 tries)")
        print("Open \(url) on the device, then enter the PIN.")
        if let fingerprint = response.caFingerprint { print("CA fingerprint (SHA-256): \(fingerprint)") }
        if let code = QRCode.terminal(url) { print(code, terminator: "") }
        return 0
    }
}

struct StatusCommand: Command {
    static let name = "status"
    static let summary = "status [--config-dir D]          connected devices, protocol gaps, problems"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        guard let response = ask(ControlRequest(command: .status), arguments) else { return 1 }
        print("TouchDeck on \(response.hostName ?? "?") — \(response.url ?? "")")
        if let fingerprint = response.caFingerprint { print("CA fingerprint (SHA-256): \(fingerprint)") }
        for notice in response.caNotices ?? [] { print("Certificate: \(notice)") }
        let connected = (response.devices ?? []).filter { $0.connections > 0 }
        print(connected.isEmpty ? "No device connected." : "Connected:")
        for device in connected {
            print(
                "  \(device.name)\(device.note.isEmpty ? "" : " " + device.note) — \(device.connections) connection(s), protocol \(device.protocolVersion ?? 1)"
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
    static let summary = "disconnect-viewer [--config-dir D]  end screen viewing now"
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
