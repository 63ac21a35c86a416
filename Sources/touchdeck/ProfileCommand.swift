import DeckHost
import DeckKit
import Foundation

/// `touchdeck profile list|switch NAME|export NAME FILE|import FILE` (PROTOCOL §6 "Profiles"), through the daemon.
struct ProfileCommand: Command {
    static let name = "profile"
    static let usage = [
        "profile [list] [--config-dir D]", "profile switch NAME", "profile export NAME FILE", "profile import FILE",
    ]
    static let summary = "list the profiles (named decks), switch the shared one, export one to a file or import one"
    static let options = [
        ("list", "every profile, the shared current one marked, and the devices that keep one of their own"),
        ("switch NAME", "show NAME on every device that follows the shared profile"),
        ("export NAME FILE", "write the profile, with its icons, to FILE (JSON)"),
        (
            "import FILE",
            "add the profile in FILE (written by export, here or on another computer); a name already taken gets "
                + "\" (2)\"; a file that is refused changes nothing"
        ),
        configDirOption,
    ]
    let arguments: Arguments
    let words: [String]

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        words = arguments.positionals
        let forms = ["list": (1, 0), "switch": (2, 1), "export": (3, 2), "import": (2, 3)]
        guard let (count, form) = forms[words.first ?? "list"] else {
            throw UsageError("unknown profile command '\(words[0])'")
        }
        guard words.isEmpty || words.count == count else { throw UsageError("usage: touchdeck \(Self.usage[form])") }
    }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        var request = ControlRequest(command: .profiles)
        switch words.first {
        case "switch": request = ControlRequest(command: .switchProfile, name: words[1])
        case "export": request = ControlRequest(command: .exportProfile, name: words[1])
        case "import":
            let url = URL(fileURLWithPath: words[1])
            // The host refuses a larger file too; not sending it spares reading it twice.
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            guard size <= ProfileFile.maxBytes else {
                printError("\(words[1]): \(ProfileFileError.tooLarge(limit: ProfileFile.maxBytes))")
                return 1
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                printError("cannot read \(words[1])")
                return 1
            }
            request = ControlRequest(command: .importProfile)
            request.file = String(decoding: data, as: UTF8.self)
        default: break
        }
        guard let response = ask(request, arguments) else { return 1 }
        switch words.first {
        case "switch": print("Devices that follow the shared profile now show \(words[1]).")
        case "export":
            do {
                try Data((response.file ?? "").utf8).write(to: URL(fileURLWithPath: words[2]), options: .atomic)
            } catch {
                printError("cannot write \(words[2]): \(error.localizedDescription)")
                return 1
            }
            print("Exported \(response.name ?? words[1]) to \(words[2]).")
            return 0
        case "import": print("Imported as \(response.name ?? "?").")
        default: break
        }
        for profile in response.profiles ?? [] {
            let kept = profile.keptBy.isEmpty ? "" : " — kept by \(profile.keptBy.joined(separator: ", "))"
            let pages = "\(profile.pages) page\(profile.pages == 1 ? "" : "s")"
            print("\(profile.current ? "*" : " ") \(profile.name) (\(profile.grid), \(pages))\(kept)")
        }
        return 0
    }
}
