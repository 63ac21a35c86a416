import DeckDesktop
import Foundation

/// The seam that opens terminal windows (DESIGN.md#seams).
public struct TerminalLauncher: Sendable {
    /// Opens a new terminal window in `directory` (`""` = home, `~` expanded, relative = under home).
    public var open: @Sendable (_ directory: String) async -> ActionResult
    /// Runs `arguments` inside a new terminal window (for `Terminal=true` apps); nil directory = home.
    public var run: @Sendable (_ arguments: [String], _ directory: String?) async -> ActionResult

    /// Creates a launcher from its two operations.
    public init(
        open: @escaping @Sendable (_ directory: String) async -> ActionResult,
        run: @escaping @Sendable (_ arguments: [String], _ directory: String?) async -> ActionResult
    ) {
        self.open = open
        self.run = run
    }

    /// Uses `$TERMINAL`, else the first installed terminal of `TerminalProgram.known`.
    public static func live(environment: HostEnvironment = .current) -> TerminalLauncher {
        TerminalLauncher(
            open: { directory in launch(environment: environment, directory: directory, command: nil) },
            run: { arguments, directory in
                launch(environment: environment, directory: directory ?? "", command: arguments)
            })
    }

    /// Answers `result` to everything, reporting each directory to `record`.
    public static func fake(
        result: ActionResult = .ok, record: @escaping @Sendable (String) -> Void = { _ in }
    ) -> TerminalLauncher {
        TerminalLauncher(
            open: { directory in
                record(directory)
                return result
            },
            run: { _, directory in
                record(directory ?? "")
                return result
            })
    }

    /// Traps if called: for tests that must never open a terminal.
    public static let unimplemented = TerminalLauncher(
        open: { _ in preconditionFailure("TerminalLauncher.open called in a test that does not expect it") },
        run: { _, _ in preconditionFailure("TerminalLauncher.run called in a test that does not expect it") })

    /// Where a button's `directory` points: home when empty, `~` expanded, and a relative path under home (the
    /// daemon's own working directory is wherever it happened to be started, which the user never sees).
    static func folder(_ directory: String, in environment: HostEnvironment) -> String {
        let expanded = directory.isEmpty ? environment.home : environment.expandingTilde(directory)
        guard !expanded.hasPrefix("/") else { return expanded }
        return URL(fileURLWithPath: environment.home).appendingPathComponent(expanded).standardizedFileURL.path
    }

    private static func launch(environment: HostEnvironment, directory: String, command: [String]?) -> ActionResult {
        let folder = folder(directory, in: environment)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failed("folder not found: \(directory)")
        }
        let terminal: TerminalProgram
        switch TerminalProgram.find(in: environment) {
        case .success(let found): terminal = found
        case .failure(let reason): return .failed(reason.message)
        }
        let arguments = command.map { terminal.runArguments($0, directory: folder) } ?? terminal.openArguments(folder)
        do {
            // The child also starts in the folder, for terminals with no working-directory flag.
            _ = try DetachedProcess.spawn(
                [terminal.path] + arguments, environment: environment.variables, directory: folder)
            return .ok
        } catch {
            return .failed("cannot start \(terminal.path): \(error)")
        }
    }
}

/// A terminal emulator and how to tell it where to start and what to run.
struct TerminalProgram: Equatable {
    /// Searched in this order when `$TERMINAL` is unset.
    static let known = [
        "alacritty", "kitty", "foot", "wezterm", "gnome-terminal", "konsole", "xfce4-terminal", "x-terminal-emulator",
    ]

    /// Why no terminal can be opened.
    enum Missing: Error, Equatable {
        /// `$TERMINAL` names a program that is not installed.
        case terminalVariable(String)
        /// `$TERMINAL` is unset and none of the known terminals is installed.
        case noneInstalled

        var message: String {
            switch self {
            case .terminalVariable(let name): "terminal not found: \(name) (from $TERMINAL)"
            case .noneInstalled: "no terminal found (set $TERMINAL)"
            }
        }
    }

    var path: String
    var name: String { (path as NSString).lastPathComponent }

    static func find(in environment: HostEnvironment) -> Result<TerminalProgram, Missing> {
        if let wanted = environment["TERMINAL"] {
            guard let path = environment.findExecutable(wanted) else { return .failure(.terminalVariable(wanted)) }
            return .success(TerminalProgram(path: path))
        }
        for name in known {
            if let path = environment.findExecutable(name) { return .success(TerminalProgram(path: path)) }
        }
        return .failure(.noneInstalled)
    }

    /// Arguments that open a window in `directory`; an unknown terminal only gets the process's cwd.
    func openArguments(_ directory: String) -> [String] {
        switch name {
        case "alacritty": ["--working-directory", directory]
        case "kitty": ["--directory", directory]
        case "foot": ["--working-directory", directory]
        case "wezterm": ["start", "--cwd", directory]
        case "gnome-terminal": ["--working-directory=\(directory)"]
        case "konsole": ["--workdir", directory]
        case "xfce4-terminal": ["--working-directory=\(directory)"]
        default: []
        }
    }

    /// Arguments that run `command` in a new window in `directory`.
    func runArguments(_ command: [String], directory: String) -> [String] {
        switch name {
        case "kitty", "foot": openArguments(directory) + command
        case "wezterm", "gnome-terminal": openArguments(directory) + ["--"] + command
        case "xfce4-terminal": openArguments(directory) + ["-x"] + command
        default: openArguments(directory) + ["-e"] + command
        }
    }
}
