import DeckHost
import Foundation

struct DevicesCommand: Command {
    static let name = "devices"
    static let usage = [
        "devices [--config-dir D]", "devices allow-screen NAME on|off", "devices allow-edit NAME on|off",
        "devices allow-clipboard NAME on|off", "devices paste-chord NAME on|off",
        "devices primary-selection NAME on|off",
        "devices rename NAME NEW-NAME",
        "devices revoke NAME",
    ]
    static let summary =
        "list paired devices, what each may do and when it was last seen; allow screen, deck editing or the "
        + "clipboard, rename, revoke"
    static let options = [
        ("allow-screen NAME on|off", "let the device view and record the screen, or stop it (off by default)"),
        (
            "allow-edit NAME on|off",
            "let the device change the deck, or only press the keys already there (on by default; a key can run "
                + "any command, so a device that may edit can do anything you can)"
        ),
        (
            "allow-clipboard NAME on|off",
            "let the device, while it views the screen, paste onto the computer and receive what is copied there "
                + "(off by default)"
        ),
        (
            "paste-chord NAME on|off",
            "whether a paste from the device also presses Ctrl+V (Ctrl+Shift+V in a terminal) in the focused window, "
                + "or only sets the clipboard (on by default)"
        ),
        (
            "primary-selection NAME on|off",
            "whether a paste from the device also sets the selected text (X11's PRIMARY, pasted with the middle "
                + "button) and, while it views, the text selected on the computer is offered too (off by default)"
        ),
        ("rename NAME NEW-NAME", "give the device another name"),
        ("revoke NAME", "forget the device and close its connections; it must pair again"), configDirOption,
    ]
    let arguments: Arguments
    let request: ControlRequest

    /// The per-device on/off settings, by their word on the command line.
    static let switches: [String: ControlRequest.Command] = [
        "allow-screen": .allowScreen, "allow-edit": .allowEdit, "allow-clipboard": .allowClipboard,
        "paste-chord": .pasteChord, "primary-selection": .primarySelection,
    ]

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        let words = arguments.positionals
        if let word = words.first, let command = Self.switches[word] {
            guard words.count == 3, ["on", "off"].contains(words[2]) else {
                throw UsageError("usage: touchdeck devices \(word) NAME on|off")
            }
            request = ControlRequest(command: command, name: words[1], on: words[2] == "on")
            return
        }
        switch words.first {
        case nil: request = ControlRequest(command: .devices)
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
        case .allowEdit:
            print("Deck editing \(request.on == true ? "allowed" : "denied") for \(request.name ?? "").")
        case .allowClipboard:
            print("Clipboard \(request.on == true ? "allowed" : "denied") for \(request.name ?? "").")
        case .pasteChord:
            let what = request.on == true ? "set the clipboard and press Ctrl+V" : "only set the clipboard"
            print("Pastes from \(request.name ?? "") now \(what).")
        case .primarySelection:
            let what = request.on == true ? "also follow and set" : "leave"
            print("The clipboard of \(request.name ?? "") will now \(what) the selected text (PRIMARY).")
        case .rename: print("Renamed \(request.name ?? "") to \(response.name ?? request.newName ?? "").")
        default: break
        }
        guard let devices = response.devices, !devices.isEmpty else {
            print("No paired devices. Pair one with `touchdeck pair`.")
            return 0
        }
        print(Self.table(devices), terminator: "")
        return 0
    }

    /// The list as columns as wide as their widest cell in terminal columns (a Hangul or kanji name takes two
    /// per character), so names in any script keep the table aligned.
    static func table(_ devices: [DeviceSummary]) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let rows = devices.sorted(by: { $0.name < $1.name }).map { device in
            [
                device.name.isEmpty ? "(unnamed)" : device.name, device.screenAllowed ? "on" : "off",
                device.editAllowed ? "on" : "off", device.clipboardAllowed ? "on" : "off",
                device.connections > 0
                    ? "connected now" : device.lastSeen.map { formatter.string(from: $0) } ?? "never",
                String(device.id.prefix(8)) + (device.note.isEmpty ? "" : " " + device.note),
            ]
        }
        let table = [["NAME", "SCREEN", "EDIT", "CLIPBOARD", "LAST SEEN", "ID"]] + rows
        let widths = (0..<5).map { column in table.map { TextWidth.columns($0[column]) }.max() ?? 0 }
        return table.map { row in
            let cells = (0..<5).map { TextWidth.pad(row[$0], to: widths[$0]) }
            return (cells + [row[5]]).joined(separator: "  ") + "\n"
        }.joined() + "\n" + legend
    }

    /// What each permission column protects, under the table.
    static let legend = """
        SCREEN on: the device may view, control and record the screen (allow-screen NAME on|off).
        EDIT on: the device may add and change keys; a key runs any command, so it can do anything you can
        (allow-edit NAME on|off). Off: it can only press the keys already on the deck.
        CLIPBOARD on: while it views, the device may paste onto the computer and receives what is copied there
        (allow-clipboard NAME on|off).

        """
}

struct DoctorCommand: Command {
    static let name = "doctor"
    static let usage = ["doctor [--fix] [--config-dir D]"]
    static let summary =
        "check the desktop, input, sound, mDNS, the certificate and the daemon, and say how to fix each"
    static let options = [
        ("--fix", "first undo what a host that was killed left behind (the sound still routed to TouchDeck)"),
        configDirOption,
    ]
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws { try arguments.allow(options: ["config-dir"], flags: ["help", "fix"]) }

    func run() async throws -> Int32 {
        let doctor = Doctor(configDirectory: arguments.configDirectory)
        if arguments.flags.contains("fix") { print("fix: \(doctor.fix())") }
        let checks = doctor.run()
        for check in checks {
            print("\(check.ok ? "ok  " : "FAIL") \(check.name): \(check.detail)")
            if !check.ok { print("     fix: \(check.fix)") }
        }
        return checks.allSatisfy(\.ok) ? 0 : 1
    }
}
