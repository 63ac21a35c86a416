import DeckDesktop
import Foundation

/// The seam that starts app buttons' desktop entries (DESIGN.md#seams).
public struct AppLauncher: Sendable {
    /// Launches the desktop entry with this id (`org.gnome.Nautilus.desktop`).
    public var launch: @Sendable (_ appID: String) async -> ActionResult

    /// Creates a launcher from its one operation.
    public init(launch: @escaping @Sendable (_ appID: String) async -> ActionResult) {
        self.launch = launch
    }

    /// Finds the entry in the XDG data dirs and starts its `Exec` line detached, in its `Path`;
    /// `Terminal=true` entries go through `terminal`.
    public static func live(environment: HostEnvironment = .current, terminal: TerminalLauncher) -> AppLauncher {
        AppLauncher { appID in
            switch DesktopLaunch.plan(appID: appID, environment: environment) {
            case .failure(let problem):
                return .failed(problem.message)
            case .success(let plan) where plan.inTerminal:
                return await terminal.run(plan.arguments, plan.directory)
            case .success(let plan):
                do {
                    _ = try DetachedProcess.spawn(
                        plan.arguments, environment: environment.variables,
                        directory: plan.directory ?? environment.home)
                    return .ok
                } catch {
                    return .failed("cannot start \(plan.arguments[0]): \(error)")
                }
            }
        }
    }

    /// Answers `result`, reporting each id to `record`.
    public static func fake(
        result: ActionResult = .ok, record: @escaping @Sendable (String) -> Void = { _ in }
    ) -> AppLauncher {
        AppLauncher { appID in
            record(appID)
            return result
        }
    }

    /// Traps if called: for tests that must never launch an app.
    public static let unimplemented = AppLauncher { _ in
        preconditionFailure("AppLauncher.launch called in a test that does not expect it")
    }
}

/// What launching one desktop entry means: the program (resolved on `$PATH`), its arguments, where.
struct DesktopLaunch: Equatable {
    var arguments: [String]
    var directory: String?
    var inTerminal: Bool

    /// Why an entry cannot be launched, worded for the device's user.
    enum Problem: Error, Equatable {
        /// No entry (or a `Hidden` one, which the spec treats as deleted) has this id.
        case notFound(String)
        /// The entry is not `Type=Application`, lacks `Exec`, or its `Exec` cannot be parsed.
        case broken(String, String)
        /// The program `Exec` names is not installed.
        case programMissing(String)

        var message: String {
            switch self {
            case .notFound(let id): "app not found: \(id)"
            case .broken(let id, let why): "broken desktop entry \(id): \(why)"
            case .programMissing(let program): "program not found: \(program)"
            }
        }
    }

    static func plan(appID: String, environment: HostEnvironment) -> Result<DesktopLaunch, Problem> {
        guard let file = DesktopEntryIndex.file(forID: appID, in: environment),
            let text = try? String(contentsOfFile: file.path, encoding: .utf8)
        else { return .failure(.notFound(appID)) }
        let entry = DesktopEntry(parsing: text)
        if entry.bool("Hidden") { return .failure(.notFound(appID)) }
        guard entry.string("Type") == "Application" else { return .failure(.broken(appID, "not an application")) }
        guard let exec = entry.string("Exec") else { return .failure(.broken(appID, "no Exec line")) }
        let locale = environment.messagesLocale.flatMap(DesktopLocale.init)
        let fields = ExecLine.Fields(
            name: entry.localized("Name", for: locale) ?? appID, icon: entry.string("Icon"), entryPath: file.path)
        var arguments: [String]
        do {
            arguments = try ExecLine.arguments(exec, fields: fields)
        } catch {
            return .failure(.broken(appID, error == .empty ? "empty Exec line" : "unterminated quote in Exec"))
        }
        guard let program = environment.findExecutable(arguments[0]) else {
            return .failure(.programMissing(arguments[0]))
        }
        arguments[0] = program
        let directory = entry.string("Path").map(environment.expandingTilde)
        return .success(DesktopLaunch(arguments: arguments, directory: directory, inTerminal: entry.bool("Terminal")))
    }
}
