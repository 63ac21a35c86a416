import DeckHost
import DeckKit
import Foundation

let commands: [any Command.Type] = [
    ServeCommand.self, PairCommand.self, DevicesCommand.self, StatusCommand.self, DisconnectViewerCommand.self, RecordCommand.self,
    DoctorCommand.self,
]

let usage = """
    touchdeck \(HostVersion.string) — a touch control surface for this computer

    usage: touchdeck <command> [options]
    \(commands.map { "  touchdeck " + $0.summary }.joined(separator: "\n"))
      touchdeck --version
    """

/// Parses, validates and runs one subcommand; returns the exit code.
@MainActor
func main(_ words: [String]) async -> Int32 {
    switch words.first {
    case "--version":
        print("touchdeck \(HostVersion.string) (protocol \(ProtocolVersion.current))")
        return 0
    case nil, "--help", "-h", "help":
        print(usage)
        return 0
    default: break
    }
    guard let type = commands.first(where: { $0.name == words[0] }) else {
        printError("unknown command '\(words[0])'\n\(usage)")
        return 64
    }
    do {
        let arguments = try Arguments(Array(words.dropFirst()))
        if arguments.flags.contains("help") {
            print("usage: touchdeck \(type.summary)")
            return 0
        }
        let command = try type.init(arguments)
        try command.validate()
        return try await command.run()
    } catch let error as UsageError {
        printError("\(error.description)\nusage: touchdeck \(type.summary)")
        return 64
    } catch {
        printError("\(error)")
        return 1
    }
}

exit(await main(Array(CommandLine.arguments.dropFirst())))
