import DeckHost
import DeckKit

/// What `touchdeck --help` and `touchdeck NAME --help` print.
enum Help {
    /// Every command with what it does, one line each.
    static func overview(_ commands: [any Command.Type]) -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            touchdeck \(HostVersion.string) — a touch control surface for this computer

            usage: touchdeck <command> [options]

            commands:
            \(lines.joined(separator: "\n"))

            `touchdeck <command> --help` shows a command's options; `touchdeck --version` the version.
            """
    }

    /// One command: its forms, what it does and its options.
    static func command(_ type: any Command.Type) -> String {
        let width = type.options.map { $0.0.count }.max() ?? 0
        let options = type.options.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
        return usage(type) + "\n\n" + type.summary
            + (options.isEmpty ? "" : "\n\noptions:\n" + options.joined(separator: "\n"))
    }

    /// `usage: touchdeck …`, one line per form.
    static func usage(_ type: any Command.Type) -> String {
        "usage: " + type.usage.map { "touchdeck " + $0 }.joined(separator: "\n       ")
    }
}
