import DeckHost
import Foundation

/// `touchdeck key set|get PAGE SLOT` (issue 23): a key's live look from a script, and the key as JSON.
struct KeyCommand: Command {
    static let name = "key"
    static let usage = [
        "key set PAGE SLOT [--profile P] [--folder F] [--label L] [--color C] [--icon EMOJI] [--badge B] "
            + "[--state on|off] [--save]",
        "key get PAGE SLOT [--profile P] [--folder F]",
    ]
    static let summary = "show a live look on a key (from a script, cron, ssh) or print the key as JSON"
    static let options = [
        ("PAGE SLOT", "the key's page and slot, counted from 0 as in the protocol"),
        ("--profile P", "the profile the key is in (default: the shared current one)"),
        folderOption,
        ("--label, --color, --icon", "the label, a palette colour, an emoji (or a stored icon's or app's name)"),
        ("--badge B, --state on|off", "a number or up to 4 characters in the corner; a toggle-like on/off state"),
        (
            "--save",
            "also write the label, colour and icon to the key in config.json (without it nothing is written, so a "
                + "script may set a key 10 times a second)"
        ),
        configDirOption,
    ]
    static let lookOptions = ["label", "color", "icon", "badge", "state"]
    static let folderOption = (
        "--folder F",
        "the key is inside a folder: F is PAGE:SLOT of the folder key on the deck, then /PAGE:SLOT of each folder "
            + "inside it (1:4 or 1:4/0:2)"
    )
    let arguments: Arguments
    let set: Bool
    let page: Int
    let slot: Int

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        let words = arguments.positionals
        guard words.count == 3, ["set", "get"].contains(words[0]), let page = Int(words[1]), let slot = Int(words[2])
        else { throw UsageError("usage: touchdeck \(Self.usage[0])\n       touchdeck \(Self.usage[1])") }
        set = words[0] == "set"
        self.page = page
        self.slot = slot
    }

    func validate() throws {
        if set {
            try arguments.allow(
                options: Set(["config-dir", "profile", "folder"] + Self.lookOptions), flags: ["help", "save"])
        } else {
            try arguments.allow(options: ["config-dir", "profile", "folder"])
        }
        _ = try Self.folder(arguments)
    }

    func run() async throws -> Int32 {
        var request = ControlRequest(command: set ? .keySet : .keyGet)
        request.page = page
        request.slot = slot
        request.profile = arguments.options["profile"]
        request.folder = try Self.folder(arguments)
        if set {
            var look: [String: String] = [:]
            for name in Self.lookOptions { look[name] = arguments.options[name] }
            let data = try JSONSerialization.data(withJSONObject: look, options: [.sortedKeys])
            request.look = String(decoding: data, as: UTF8.self)
            request.save = arguments.flags.contains("save")
        }
        guard let response = ask(request, arguments) else { return 1 }
        print(response.key ?? "{}")
        return 0
    }
}

/// `touchdeck press PAGE SLOT` (issue 23): presses the key as a device would and prints what it did.
struct PressCommand: Command {
    static let name = "press"
    static let usage = ["press PAGE SLOT [--profile P] [--folder F]"]
    static let summary = "press a key as a device would and print the result"
    static let options = [
        ("PAGE SLOT", "the key's page and slot, counted from 0"),
        ("--profile P", "the profile the key is in (default: the shared current one)"), KeyCommand.folderOption,
        configDirOption,
    ]
    let arguments: Arguments
    let page: Int
    let slot: Int

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        let words = arguments.positionals
        guard words.count == 2, let page = Int(words[0]), let slot = Int(words[1]) else {
            throw UsageError("usage: touchdeck \(Self.usage[0])")
        }
        self.page = page
        self.slot = slot
    }

    func validate() throws {
        try arguments.allow(options: ["config-dir", "profile", "folder"])
        _ = try KeyCommand.folder(arguments)
    }

    func run() async throws -> Int32 {
        var request = ControlRequest(command: .press)
        request.page = page
        request.slot = slot
        request.profile = arguments.options["profile"]
        request.folder = try KeyCommand.folder(arguments)
        guard let response = ask(request, arguments) else { return 1 }
        print(response.pressed ?? "ok")
        return 0
    }
}

extension KeyCommand {
    /// `--folder 1:4/0:2` as the control request's pages and slots; nil without the option.
    static func folder(_ arguments: Arguments) throws -> [[Int]]? {
        guard let text = arguments.options["folder"] else { return nil }
        let steps = text.split(separator: "/", omittingEmptySubsequences: false).map { step in
            step.split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }.filter { $0 >= 0 }
        }
        guard !steps.isEmpty, steps.allSatisfy({ $0.count == 2 }) else {
            throw UsageError(
                "--folder is PAGE:SLOT of each folder key from the deck down, joined by / (1:4 or 1:4/0:2)")
        }
        return steps
    }
}
