import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// An authorized session fed genuine, replayed, mutated, unsealed and sealed-garbage messages. Only a
/// genuine sealed request becomes a `.request`, and everything the host says from then on is sealed.
@Suite struct SealedSessionFuzzTests {
    /// Every request a device may send after authorization, from the fixtures.
    static let requests: [DeviceMessage] = SessionFuzzTests.fixtures.compactMap {
        guard let message = try? DeviceMessage.decode($0), !message.isHandshake else { return nil }
        if case .secure = message { return nil }
        return message
    }

    /// One authorized connection and the device's end of its channel.
    struct Connection {
        let host: CryptoSession
        var channel: SecureChannel
        var readUpTo: Int

        init(_ rng: inout FuzzRNG) throws {
            host = try CryptoSession()
            host.session = SessionFuzzTests.session(&rng)
            channel = try SessionFuzzTests.transcript(on: host).channel
            readUpTo = host.wire.count
        }

        static func text(_ message: DeviceMessage) -> String { String(decoding: message.encode(), as: UTF8.self) }

        /// Every new text from the host must be a `secure` envelope that opens, in order, on the device.
        mutating func readReplies(_ label: String) {
            for text in host.wire[readUpTo...] {
                guard case .secure(let envelope)? = try? HostMessage.decode(text),
                    let inner = try? channel.open(envelope), (try? HostMessage.decode(inner)) != nil
                else {
                    Issue.record("\(label): the host said something unsealed or unopenable")
                    break
                }
            }
            readUpTo = host.wire.count
        }
    }

    @Test func onlyGenuineSealedRequestsCount() throws {
        var rng = FuzzRNG(seed: 0x5EED_0901)
        var granted = 0
        #expect(Self.requests.count > 10)
        for i in 0..<40 {
            var connection = try Connection(&rng)
            var delivered: [String] = []
            for j in 0..<60 {
                let label = "#\(i).\(j)"
                if rng.chance(2) {
                    #expect(
                        connection.host.sendBinary().actions.contains { if case .close = $0 { true } else { false } })
                    break
                }
                granted += send(&connection, delivered: &delivered, &rng, label)
                connection.readReplies(label)
            }
        }
        #expect(granted > 400)
    }

    /// Sends one message of a random kind; checks what it led to; returns how many requests it granted.
    func send(_ c: inout Connection, delivered: inout [String], _ rng: inout FuzzRNG, _ label: String) -> Int {
        let message = rng.pick(Self.requests)
        let sealed = c.channel.seal(message)
        let genuine = Connection.text(.secure(sealed))
        let (text, expected): (String, DeviceMessage?)
        switch rng.below(10) {
        case 0..<3: (text, expected) = (genuine, message)
        case 3, 4: (text, expected) = (delivered.isEmpty ? genuine : rng.pick(delivered), nil)
        case 5, 6: (text, expected) = (SessionFuzzTests.garbage(from: [genuine], &rng), nil)
        case 7: (text, expected) = (SessionFuzzTests.garbage(from: SessionStageFuzzTests.pool, &rng), nil)
        default:
            let plaintext = ByteMutator.mutate(rng.pick(Self.requests).encode(), rng: &rng)
            let inner = try? DeviceMessage.decode(plaintext)
            let allowed = inner.map { !$0.isHandshake && $0.type != "secure" } ?? false
            (text, expected) = (Connection.text(.secure(c.channel.seal(plaintext))), allowed ? inner : nil)
        }
        let requests = c.host.sendText(text).compactMap { if case .request(let m) = $0 { m } else { nil } }
        if text == genuine || expected != nil { delivered.append(text) }
        // A mutation may leave the envelope intact (an added unknown field): then it is the genuine one.
        let intact = {
            if case .secure(let read)? = try? DeviceMessage.decode(text) { Self.same(read, sealed) } else { false }
        }()
        let allowed = expected.map { [$0] } ?? (intact ? [message] : [])
        #expect(requests.isEmpty || requests == allowed, "\(label): \(requests) was granted")
        #expect(expected == nil || requests == allowed, "\(label): a genuine request was refused")
        return requests.count
    }

    static func same(_ a: SecureEnvelope, _ b: SecureEnvelope) -> Bool {
        a.seq == b.seq && Data(base64Encoded: a.box) != nil && Data(base64Encoded: a.box) == Data(base64Encoded: b.box)
    }
}
