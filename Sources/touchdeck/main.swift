import Foundation
import DeckHost
import DeckKit

let usage = """
    touchdeck \(HostVersion.string) — a touch control surface for this computer

    usage: touchdeck [--help] [--version]
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--version":
    print("touchdeck \(HostVersion.string) (protocol \(ProtocolVersion.current))")
case nil, "--help", "-h":
    print(usage)
default:
    FileHandle.standardError.write(Data("touchdeck: unknown argument '\(arguments[0])'\n\(usage)\n".utf8))
    exit(64)
}
