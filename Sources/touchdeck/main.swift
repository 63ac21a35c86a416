import DeckHost
import DeckKit
import Foundation

let commands: [any Command.Type] = [
    ServeCommand.self, PairCommand.self, DevicesCommand.self, StatusCommand.self, DisconnectViewerCommand.self,
    RecordCommand.self, ProfileCommand.self, DoctorCommand.self, KeyCommand.self, PressCommand.self,
]

/// Parses, validates and runs one subcommand; returns the exit code.
@MainActor
func main(_ words: [String]) async -> Int32 {
    switch words.first {
    case "--version":
        print("touchdeck \(HostVersion.string) (protocol \(ProtocolVersion.current))")
        return 0
    case nil, "--help", "-h", "help":
        print(Help.overview(commands))
        return 0
    default: break
    }
    guard let type = commands.first(where: { $0.name == words[0] }) else {
        printError("unknown command '\(words[0])'\n\(Help.overview(commands))")
        return 64
    }
    do {
        let arguments = try Arguments(Array(words.dropFirst()))
        if arguments.flags.contains("help") {
            print(Help.command(type))
            return 0
        }
        let command = try type.init(arguments)
        try command.validate()
        return try await command.run()
    } catch let error as UsageError {
        printError("\(error.description)\n\(Help.usage(type))")
        return 64
    } catch {
        printError("\(error)")
        return 1
    }
}

exit(await main(Array(CommandLine.arguments.dropFirst())))
