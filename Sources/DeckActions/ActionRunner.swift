import DeckDesktop
import DeckKit

/// Launches what a pressed key stands for when that is a program or a desktop handler (a `Launch`, DESIGN.md#deck); the
/// session code sees only this seam.
public struct ActionRunner: Sendable {
    private let perform: @Sendable (Launch) async -> ActionResult

    /// A runner from one closure (fakes and tests).
    public init(perform: @escaping @Sendable (Launch) async -> ActionResult) {
        self.perform = perform
    }

    /// Dispatches each launch to its seam.
    public init(
        apps: AppLauncher, commands: CommandRunner, terminals: TerminalLauncher, opener: Opener = .unimplemented,
        media: MediaControl = .unimplemented
    ) {
        perform = { launch in
            switch launch {
            case .app(let appID):
                return await apps.launch(appID)
            case .command(let command, let label):
                guard !command.allSatisfy(\.isWhitespace) else { return .failed("empty command") }
                return await commands.run(command, CommandLogName.make(label: label, command: command))
            case .terminal(let directory):
                return await terminals.open(directory)
            case .open(let target):
                return await opener.open(target)
            case .media(let action):
                return await media.press(action)
            }
        }
    }

    /// The real desktop: desktop entries, the user's shell and terminal, all read from `environment`; media keys
    /// go to `media` (the session bus's MPRIS players, which the caller builds: DeckActions does not own the bus).
    public static func live(environment: HostEnvironment = .current, media: MediaControl = .unimplemented)
        -> ActionRunner
    {
        let terminals = TerminalLauncher.live(environment: environment)
        return ActionRunner(
            apps: .live(environment: environment, terminal: terminals),
            commands: .live(environment: environment), terminals: terminals, opener: .live(environment: environment),
            media: media)
    }

    /// Answers `result` to every press at once: the "action that costs nothing" of the benchmarks.
    public static func fake(result: ActionResult = .ok) -> ActionRunner {
        ActionRunner { _ in result }
    }

    /// Traps if called: for tests that must never run an action.
    public static let unimplemented = ActionRunner { _ in
        preconditionFailure("ActionRunner.run called in a test that does not expect it")
    }

    /// Runs the launch and reports ok or a short reason for the device.
    public func run(_ launch: Launch) async -> ActionResult {
        await perform(launch)
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
