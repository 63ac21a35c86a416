import DeckCrypto
import DeckHost
import DeckKit
import Foundation

/// The host side of the protocol for interop tests: the daemon's own `SessionMachine` and `CryptoServices`
/// over a throwaway device list, plus an echo service once authorized.
struct PeerHost {
    /// One thing to write: a line, or the end of the connection.
    enum Output: Equatable {
        case line(String)
        case close
    }

    private var session = SessionMachine<CryptoServices>()
    private let services: CryptoServices
    private let devices: DeviceBook
    /// The session's channel, used for binary only. The real host closes on binary from a device; the peer
    /// echoes it so the crypto tests can check binary sealing. Text and binary count separately (§5), so
    /// this copy's binary counters are the only ones in use.
    private var binary: SecureChannel?

    /// A host whose one PIN is `pin`, live from the start, keeping paired devices in `directory`.
    init(pin: String, hostName: String, directory: URL) throws {
        devices = DeviceBook(store: try ConfigStore(directory: directory))
        var gate = PairingGate(makePin: { pin })
        _ = gate.issuePin(now: .now)
        services = CryptoServices(
            hostName: hostName, devices: devices, gate: gate, clock: { .now }, log: .silent, pinIssued: { _, _, _ in })
    }

    /// Handles one input line.
    mutating func handle(line: String) -> [Output] {
        if let bytes = WireLine.binary(Data(line.utf8)) { return handle(binary: bytes) }
        let echo = peekEcho(line)
        var outputs: [Output] = []
        for action in session.receive(text: line, now: Date(), services: services) {
            outputs += perform(action, echo: echo)
        }
        return outputs
    }

    /// The session answers an inner `echo` with `unknownType` (no such request); the peer needs its text, so it
    /// opens the envelope with a copy of the session's channel. The session still opens the original, so
    /// its seq check (replays) is the real one.
    private func peekEcho(_ line: String) -> Echo? {
        guard case .authorized(var channel, _) = session.stage,
            case .secure(let envelope) = try? DeviceMessage.decode(line),
            let inner = try? channel.open(envelope)
        else { return nil }
        return try? JSONDecoder().decode(Echo.self, from: inner)
    }

    private mutating func perform(_ action: SessionAction, echo: Echo?) -> [Output] {
        switch action {
        case .send(let message): return [text(message)]
        case .sendSealed(let message): return sealed(encoded: Self.reply(message, echo: echo))
        case .close: return [.close]
        case .paired(let record):
            // DeviceBook keeps the record in memory even if the temporary file cannot be written.
            try? devices.add(record)
            return []
        case .authorized:
            if case .authorized(let channel, _) = session.stage { binary = channel }
            return []
        case .request:
            let refusal = HostMessage.error(.init(code: .unavailable, message: "the peer only echoes"))
            return sealed(encoded: refusal.encode())
        }
    }

    /// The session's sealed answer, except that an inner `echo` (refused as `unknownType`) is echoed.
    private static func reply(_ message: HostMessage, echo: Echo?) -> Data {
        guard case .error(let error) = message, error.code == .unknownType, let echo, echo.type == "echo" else {
            return message.encode()
        }
        return WireLine.encode(echo)
    }

    /// Before authorization binary gets the real host's answer (an error, then the close); after it, an echo.
    private mutating func handle(binary message: Data) -> [Output] {
        guard var channel = binary else { return session.receiveBinary().flatMap { perform($0, echo: nil) } }
        do {
            let body = try channel.openBinary(message)
            let reply = channel.sealBinary(body)
            binary = channel
            return [.line(WireLine.binaryLine(reply))]
        } catch {
            return sealed(encoded: HostMessage.error(.init(for: error)).encode())
        }
    }

    private mutating func sealed(encoded inner: Data) -> [Output] {
        guard let line = session.seal(encoded: inner) else { return [] }
        return [.line(line)]
    }

    private func text(_ message: HostMessage) -> Output {
        .line(String(decoding: message.encode(), as: UTF8.self))
    }
}

/// The inner test message `{"type":"echo","text":S}`.
struct Echo: Codable {
    var type: String
    var text: String
}

/// The line format: a text message is its JSON object; a binary one is `{"binary":"<base64>"}`.
enum WireLine {
    private struct Binary: Codable { var binary: String }

    /// The bytes of a binary line, or nil when the line is a text message.
    static func binary(_ line: Data) -> Data? {
        guard let wrapper = try? JSONDecoder().decode(Binary.self, from: line) else { return nil }
        // A malformed base64 still counts as binary: it goes on as bytes that will not open.
        return Data(base64Encoded: wrapper.binary) ?? Data()
    }

    static func binaryLine(_ bytes: Data) -> String {
        String(decoding: encode(Binary(binary: bytes.base64EncodedString())), as: UTF8.self)
    }

    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings inside: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
