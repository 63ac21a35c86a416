import DeckCrypto
import Foundation

// The Swift side of the cross-language crypto tests: plays the host of docs/PROTOCOL.md §2–§5 with the
// daemon's own session code (SessionMachine, CryptoServices) over stdin/stdout, one wire message per line.

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

// Paired devices go to a private temporary config directory (mode 0700, secrets 0600), removed on exit.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-peer-\(UUID().uuidString)")

func finish() -> Never {
    try? FileManager.default.removeItem(at: directory)
    exit(0)
}

// Test drivers may end the peer with a signal instead of closing stdin; the directory must go then too.
let stopSignals = [SIGTERM, SIGINT, SIGHUP].map { number in
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { finish() }
    source.resume()
    return source
}

var peer: PeerHost
do {
    peer = try PeerHost(pin: pin, hostName: hostName, directory: directory)
} catch {
    fail("touchdeck-peer: cannot create \(directory.path)")
}
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    for output in peer.handle(line: line) {
        switch output {
        case .line(let text): FileHandle.standardOutput.write(Data((text + "\n").utf8))
        case .close: finish()
        }
    }
}
finish()
