import DeckHost
import Foundation

struct DevicesCommand: Command {
    static let name = "devices"
    static let summary = """
        devices [--config-dir D]         list paired devices with when they were last seen
          touchdeck devices allow-screen NAME on|off
          touchdeck devices rename NAME NEW-NAME
          touchdeck devices revoke NAME
        """
    let arguments: Arguments
    let request: ControlRequest

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        let words = arguments.positionals
        switch words.first {
        case nil: request = ControlRequest(command: .devices)
        case "allow-screen":
            guard words.count == 3, ["on", "off"].contains(words[2]) else {
                throw UsageError("usage: touchdeck devices allow-screen NAME on|off")
            }
            request = ControlRequest(command: .allowScreen, name: words[1], on: words[2] == "on")
        case "revoke":
            guard words.count == 2 else { throw UsageError("usage: touchdeck devices revoke NAME") }
            request = ControlRequest(command: .revoke, name: words[1])
        case "rename":
            guard words.count == 3 else { throw UsageError("usage: touchdeck devices rename NAME NEW-NAME") }
            request = ControlRequest(command: .rename, name: words[1], newName: words[2])
        default: throw UsageError("unknown devices command '\(words[0])'")
        }
    }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        guard let response = ask(request, arguments) else { return 1 }
        switch request.command {
        case .revoke: print("Revoked \(request.name ?? ""); its connections were closed and it must pair again.")
        case .allowScreen:
            print("Screen viewing \(request.on == true ? "allowed" : "denied") for \(request.name ?? "").")
        case .rename: print("Renamed \(request.name ?? "") to \(response.name ?? request.newName ?? "").")
        default: break
        }
        Self.printTable(response.devices ?? [])
        return 0
    }

    static func printTable(_ devices: [DeviceSummary]) {
        guard !devices.isEmpty else { return print("No paired devices. Pair one with `touchdeck pair`.") }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let rows = devices.sorted(by: { $0.name < $1.name }).map { device in
            [
                device.name.isEmpty ? "(unnamed)" : device.name, device.screenAllowed ? "on" : "off",
                device.connections > 0 ? "connected now" : device.lastSeen.map { formatter.string(from: $0) } ?? "never",
                String(device.id.prefix(8)) + (device.note.isEmpty ? "" : " " + device.note),
            ]
        }
        // Columns as wide as their longest cell, so long device names keep the table aligned.
        let table = [["NAME", "SCREEN", "LAST SEEN", "ID"]] + rows
        let widths = (0..<3).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            let cells = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            print((cells + [row[3]]).joined(separator: "  "))
        }
    }
}

struct DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "doctor [--config-dir D]          check display, XTest, XShm, sound, mDNS, certificate"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        let checks = Doctor(configDirectory: arguments.configDirectory).run()
        for check in checks {
            print("\(check.ok ? "ok  " : "FAIL") \(check.name): \(check.detail)")
            if !check.ok { print("     fix: \(check.fix)") }
        }
        return checks.allSatisfy(\.ok) ? 0 : 1
    }
}

/// Finds the web client's folder: `--web-root`, `$TOUCHDECK_WEB`, a `Web/` above the executable (a build in
/// the checkout), or the installed share dir.
enum WebRoot {
    static func find(_ option: String?) -> URL? {
        if let option { return URL(fileURLWithPath: option) }
        if let env = ProcessInfo.processInfo.environment["TOUCHDECK_WEB"] { return URL(fileURLWithPath: env) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Web")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("app/index.html").path) {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
        let shared = URL(fileURLWithPath: "/usr/share/touchdeck/web")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }
}
