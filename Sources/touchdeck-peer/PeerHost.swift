import DeckCrypto
import DeckKit
import Foundation

/// The host side of the protocol for interop tests: `HostHandshake` plus an echo service once authorized.
/// Devices paired during the run are kept in memory only.
struct PeerHost {
    /// One thing to write: a line, or the end of the connection.
    enum Output: Equatable {
        case line(String)
        case close
    }

    private var handshake: HostHandshake
    private var gate: PairingGate
    private let registry = InMemoryDeviceRegistry()

    init(pin: String, hostName: String) {
        handshake = HostHandshake(hostName: hostName)
        gate = PairingGate(makePin: { pin })
        _ = gate.issuePin(now: .now)
    }

    /// Handles one input line.
    mutating func handle(line: String) -> [Output] {
        let data = Data(line.utf8)
        if let binary = WireLine.binary(data) { return handle(binary: binary) }
        let message: DeviceMessage
        do {
            message = try DeviceMessage.decode(data)
        } catch {
            return [text(.error(.init(for: error)))]
        }
        var outputs: [Output] = []
        for action in handshake.receive(message, gate: &gate, registry: registry, now: .now) {
            outputs += perform(action)
        }
        return outputs
    }

    private mutating func perform(_ action: HostHandshake.Action) -> [Output] {
        switch action {
        case .send(let message): return [text(message)]
        case .store(let device):
            registry.add(device)
            return []
        case .showPin, .authorized: return []
        case .inner(let inner): return echo(inner)
        case .close: return [.close]
        }
    }

    /// `{"type":"echo","text":S}` comes back sealed as the same; anything else is a sealed `unknownType`.
    private mutating func echo(_ inner: Data) -> [Output] {
        let reply: Data
        if let echo = try? JSONDecoder().decode(Echo.self, from: inner), echo.type == "echo" {
            reply = WireLine.encode(echo)
        } else {
            reply = HostMessage.error(.init(code: .unknownType, message: "the peer only echoes")).encode()
        }
        guard let sealed = handshake.seal(json: reply) else { return [] }
        return [text(sealed)]
    }

    private mutating func handle(binary: Data) -> [Output] {
        guard case .authorized = handshake.stage else {
            return [text(.unauthorized(.init(reason: .notAuthorized)))]
        }
        do {
            let inner = try handshake.openBinary(binary)
            guard let sealed = handshake.sealBinary(inner) else { return [] }
            return [.line(WireLine.binaryLine(sealed))]
        } catch {
            return [text(.error(.init(for: error)))]
        }
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
