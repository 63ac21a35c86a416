import DeckHost
import DeckKit
import Foundation

/// `touchdeck profile list|switch NAME|export NAME FILE|import FILE|delete NAME|rename OLD NEW` (PROTOCOL §6
/// "Profiles"), through the daemon.
struct ProfileCommand: Command {
    static let name = "profile"
    static let usage = [
        "profile [list] [--config-dir D]", "profile switch NAME", "profile export NAME FILE", "profile import FILE",
        "profile delete NAME", "profile rename OLD NEW", "profile apps NAME [add|remove APP...]",
    ]
    static let summary =
        "list the profiles (named decks), switch the shared one; export, import, delete or rename one, or name the apps "
        + "it is for"
    static let options = [
        ("list", "every profile, the shared current one marked, and the devices that keep one of their own"),
        ("switch NAME", "show NAME on every device that follows the shared profile"),
        ("export NAME FILE", "write the profile, with its icons, to FILE (JSON)"),
        (
            "import FILE",
            "add the profile in FILE (written by export, here or on another computer); a name already taken gets "
                + "\" (2)\"; a file that is refused changes nothing"
        ),
        (
            "delete NAME",
            "delete the profile (not the last one); the devices that kept it follow the shared one, and when it was "
                + "the shared one the first of the others becomes it"
        ),
        ("rename OLD NEW", "rename the profile (not to a name another has); devices and profile keys go along"),
        (
            "apps NAME [add|remove APP...]",
            "the apps the profile is for (a desktop entry id, an X11 WM_CLASS or a Wayland app id): while one has "
                + "the focus, devices that follow the shared profile show it, and the shared one again after"
        ),
        configDirOption,
    ]
    let arguments: Arguments
    let words: [String]

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        words = arguments.positionals
        let forms = [
            "list": (1, 0), "switch": (2, 1), "export": (3, 2), "import": (2, 3), "delete": (2, 4), "rename": (3, 5),
            "apps": (2, 6),
        ]
        guard let (count, form) = forms[words.first ?? "list"] else {
            throw UsageError("unknown profile command '\(words[0])'")
        }
        let appsChange = words.first == "apps" && words.count >= 4 && ["add", "remove"].contains(words[2])
        guard words.isEmpty || words.count == count || appsChange else {
            throw UsageError("usage: touchdeck \(Self.usage[form])")
        }
    }

    func validate() throws { try arguments.allow(options: ["config-dir"]) }

    func run() async throws -> Int32 {
        var request = ControlRequest(command: .profiles)
        switch words.first {
        case "switch": request = ControlRequest(command: .switchProfile, name: words[1])
        case "delete": request = ControlRequest(command: .deleteProfile, name: words[1])
        case "rename": request = ControlRequest(command: .renameProfile, name: words[1], newName: words[2])
        case "export": request = ControlRequest(command: .exportProfile, name: words[1])
        case "apps":
            request = ControlRequest(command: .profileApps, name: words[1])
            if words.count >= 4 { (request.action, request.apps) = (words[2], Array(words[3...])) }
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
        case "delete": print("Deleted \(response.name ?? words[1]).")
        case "rename": print("Renamed \(words[1]) to \(response.name ?? words[2]).")
        default: break
        }
        for profile in response.profiles ?? [] {
            let kept = profile.keptBy.isEmpty ? "" : " — kept by \(profile.keptBy.joined(separator: ", "))"
            let pages = "\(profile.pages) page\(profile.pages == 1 ? "" : "s")"
            let apps = profile.apps.map { " — for \($0.joined(separator: ", "))" } ?? ""
            let focused = profile.focused == true ? " — shown for the focused app" : ""
            print("\(profile.current ? "*" : " ") \(profile.name) (\(profile.grid), \(pages))\(kept)\(apps)\(focused)")
        }
        return 0
    }
}
