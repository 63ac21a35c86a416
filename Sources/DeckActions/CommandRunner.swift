import DeckDesktop
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The seam that runs a command button's line (DESIGN.md#seams).
public struct CommandRunner: Sendable {
    /// Runs `command`; `logName` names the log file its output is appended to.
    public var run: @Sendable (_ command: String, _ logName: String) async -> ActionResult

    /// Creates a runner from its one operation.
    public init(run: @escaping @Sendable (_ command: String, _ logName: String) async -> ActionResult) {
        self.run = run
    }

    /// Runs the line in `$SHELL -i -c` (so aliases and functions from the user's rc files work), detached,
    /// in the home dir. Answers `running` once it started; its outcome is its exit (0 is ok, anything else fails
    /// with the last line it printed), or ok when it still runs after `limit` (a long job counts as started).
    public static func live(environment: HostEnvironment = .current, limit: Duration = .seconds(10))
        -> CommandRunner
    {
        CommandRunner { command, logName in
            await ShellCommand(environment: environment, command: command, logName: logName).run(limit: limit)
        }
    }

    /// Records each call and answers `result`.
    public static func fake(
        result: ActionResult = .ok, record: @escaping @Sendable (String) -> Void = { _ in }
    ) -> CommandRunner {
        CommandRunner { command, _ in
            record(command)
            return result
        }
    }

    /// Traps if called: for tests that must never run a command.
    public static let unimplemented = CommandRunner { _, _ in
        preconditionFailure("CommandRunner.run called in a test that does not expect it")
    }

    /// Where command output goes: `$XDG_STATE_HOME/touchdeck/logs` (what `touchdeck status` shows).
    public static func logDirectory(environment: HostEnvironment = .current) -> String {
        environment.stateHome + "/touchdeck/logs"
    }
}

/// One run of a command button.
struct ShellCommand {
    var environment: HostEnvironment
    var command: String
    var logName: String

    func run(limit: Duration) async -> ActionResult {
        let shellName = environment["SHELL"] ?? "/bin/sh"
        guard let shell = environment.findExecutable(shellName) else { return .failed("shell not found: \(shellName)") }
        let log: CommandLog
        do {
            log = try CommandLog.open(directory: CommandRunner.logDirectory(environment: environment), name: logName)
        } catch {
            return .failed("cannot write the command log: \(error.localizedDescription)")
        }
        log.appendHeader(for: command)
        let child: ChildExit
        do {
            child = try DetachedProcess.spawn(
                [shell, "-i", "-c", command], environment: environment.variables, directory: environment.home,
                output: log.descriptor)
            log.close()
        } catch {
            log.close()
            return .failed("cannot start \(shell): \(error)")
        }
        let output = log.output
        return .running(ActionOutcome { verdict(await child.wait(upTo: limit), output: { output.tail() }) })
    }

    /// Turns an exit into the device's message; a command still running at the limit counts as started fine.
    func verdict(_ status: ExitStatus?, output: () -> String) -> ActionResult {
        switch status {
        case nil, .exited(0):
            return .ok
        case .exited(127):
            return .failed("command not found: \(ShellOutput.missingCommand(in: output(), command: command))")
        case .exited(let code):
            let last = ShellOutput.lastMeaningfulLine(output())
            return .failed(last.map { "exit \(code): \($0)" } ?? "exit \(code)")
        case .signaled(let signal):
            return .failed("killed by signal \(signal)")
        }
    }
}

/// Reading what the shell printed.
enum ShellOutput {
    /// Noise an interactive shell prints when started without a terminal, or (bash) on `exit`.
    static func isNoise(_ line: Substring) -> Bool {
        line == "exit" || line.contains("cannot set terminal process group")
            || line.contains("no job control in this shell")
            || line.contains("Inappropriate ioctl for device")
    }

    static func lastMeaningfulLine(_ output: String) -> String? {
        let lines = output.split(whereSeparator: \.isNewline).filter { !isNoise($0) && !$0.allSatisfy(\.isWhitespace) }
        return lines.last.map { String($0.prefix(200)) }
    }

    /// The name the shell could not find, from bash (`x: command not found`), zsh (`command not found: x`),
    /// dash (`x: not found`) or fish (`Unknown command: x`); else the line's first word.
    static func missingCommand(in output: String, command: String) -> String {
        for line in output.split(whereSeparator: \.isNewline).reversed() {
            for marker in ["command not found: ", "Unknown command: "] {
                if let range = line.range(of: marker) { return String(line[range.upperBound...]) }
            }
            for marker in [": command not found", ": not found"] {
                if let range = line.range(of: marker) {
                    let before = line[..<range.lowerBound]
                    return String(before.split(separator: ":").last ?? before).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return command.split(separator: " ").first.map(String.init) ?? command
    }
}
