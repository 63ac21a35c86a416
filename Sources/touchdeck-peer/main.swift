import DeckCrypto
import Foundation

// The Swift side of the cross-language crypto tests: plays the host (or later the device) of
// docs/PROTOCOL.md §2–§5 over stdin/stdout, one wire message per line.

let usage = """
    usage: touchdeck-peer host --pin NNNNNN [--name HOSTNAME]
      stdin/stdout: one wire message per line; text = the JSON object, binary = {"binary":"<base64>"}
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "host" else { fail(usage) }
var pin: String?
var hostName = "peer"
var at = 1
while at < arguments.count {
    guard at + 1 < arguments.count else { fail(usage) }
    switch arguments[at] {
    case "--pin": pin = arguments[at + 1]
    case "--name": hostName = arguments[at + 1]
    default: fail(usage)
    }
    at += 2
}
guard let pin, pin.count == 6, pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
    fail("touchdeck-peer: --pin takes six digits")
}

var peer = PeerHost(pin: pin, hostName: hostName)
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    for output in peer.handle(line: line) {
        switch output {
        case .line(let text): FileHandle.standardOutput.write(Data((text + "\n").utf8))
        case .close: exit(0)
        }
    }
}
