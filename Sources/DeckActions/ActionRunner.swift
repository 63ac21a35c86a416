import DeckKit

/// Runs what a pressed button stands for (SPEC §4); the session code sees only this seam.
public struct ActionRunner: Sendable {
    private let perform: @Sendable (Button) async -> ActionResult

    /// A runner from one closure (fakes and tests).
    public init(perform: @escaping @Sendable (Button) async -> ActionResult) {
        self.perform = perform
    }

    /// Dispatches each button kind to its seam.
    public init(apps: AppLauncher, commands: CommandRunner, terminals: TerminalLauncher) {
        perform = { button in
            switch button.kind {
            case .app(let appID):
                return await apps.launch(appID)
            case .command(let command):
                guard !command.allSatisfy(\.isWhitespace) else { return .failed("empty command") }
                return await commands.run(command, CommandLogName.make(label: button.label, command: command))
            case .terminal(let directory):
                return await terminals.open(directory)
            case .record:
                // DeckServer takes record keys to its recording before any runner sees them.
                return .failed("a record key is run by the host's recorder")
            }
        }
    }

    /// The real desktop: desktop entries, the user's shell and terminal, all read from `environment`.
    public static func live(environment: HostEnvironment = .current) -> ActionRunner {
        let terminals = TerminalLauncher.live(environment: environment)
        return ActionRunner(
            apps: .live(environment: environment, terminal: terminals),
            commands: .live(environment: environment), terminals: terminals)
    }

    /// Answers `result` to every press at once: the "action that costs nothing" of the benchmarks.
    public static func fake(result: ActionResult = .ok) -> ActionRunner {
        ActionRunner { _ in result }
    }

    /// Traps if called: for tests that must never run an action.
    public static let unimplemented = ActionRunner { _ in
        preconditionFailure("ActionRunner.run called in a test that does not expect it")
    }

    /// Runs the button's action and reports ok or a short reason for the device.
    public func run(_ button: Button) async -> ActionResult {
        await perform(button)
    }
}

/// Names a command button's log file: the label's safe characters plus a hash of the command, so two
/// buttons with the same label (or a non-Latin one) still get separate, stable files.
enum CommandLogName {
    static func make(label: String, command: String) -> String {
        let safe = label.unicodeScalars.map { scalar -> Character in
            CharacterSetASCII.isWordish(scalar) ? Character(scalar) : "-"
        }
        let slug = String(String(safe).split(separator: "-").joined(separator: "-").prefix(40))
        return (slug.isEmpty ? "command" : slug) + "-" + fnv1a(command)
    }

    /// FNV-1a, 32 bits as hex: stable across runs, unlike `Hasher`.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

private enum CharacterSetASCII {
    static func isWordish(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".": true
        default: false
        }
    }
}
