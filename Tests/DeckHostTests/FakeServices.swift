import DeckDesktop
import DeckKit
import Foundation

@testable import DeckHost

/// A transparent channel: the "box" is the base64 plaintext; seqs are checked like the real one.
struct FakeChannel: SealedChannel, Equatable {
    var sent: UInt64 = 0
    var lastReceived: UInt64 = 0

    struct Refused: Error {}

    mutating func open(_ envelope: SecureEnvelope) throws -> Data {
        guard envelope.seq > lastReceived, let data = Data(base64Encoded: envelope.box) else { throw Refused() }
        lastReceived = envelope.seq
        return data
    }

    mutating func seal(_ plaintext: Data) throws -> SecureEnvelope {
        sent += 1
        return SecureEnvelope(seq: sent, box: plaintext.base64EncodedString())
    }

    mutating func sealBinary(_ payload: Data) throws -> Data { payload }

    /// Binary messages pass unsealed.
    var mediaSealer: any MediaSealing { TransparentSealer() }

    /// What a device would send: the message boxed with `seq`.
    static func envelope(_ message: DeviceMessage, seq: UInt64) -> String {
        let env = SecureEnvelope(seq: seq, box: message.encode().base64EncodedString())
        return String(decoding: DeviceMessage.secure(env).encode(), as: UTF8.self)
    }
}

/// Services with a fixed PIN answer ("good" confirms), one paired device and proof "ok".
final class FakeServices: SessionServices {
    var paired: Set<String> = ["known"]
    var pairingRequests: [String] = []
    var remaining = 5
    let hostName = "desk"

    func isPaired(_ deviceId: String) -> Bool { paired.contains(deviceId) }

    func pairingWanted(by name: String) { pairingRequests.append(name) }

    func beginPairing(_ start: DeviceMessage.PairStart, peer: String)
        -> HandshakeStep<HostMessage.PairChallenge, String>
    {
        remaining > 0 ? .next(.init(pB: "B"), start.pA) : .refused(.pairingFailed(.init(reason: .noPin)))
    }

    func finishPairing(_ state: String, _ confirm: DeviceMessage.PairConfirm, name: String, peer: String)
        -> HandshakeStep<HostMessage.Paired, DeviceRecord>
    {
        guard confirm.cA == "good" else {
            remaining -= 1
            return .refused(.pairingFailed(.init(reason: .wrongPin, remaining: remaining)))
        }
        let device = DeviceRecord(id: "new", name: name, secret: Data(count: 32))
        return .next(.init(deviceId: "new", cB: "cB", box: "box"), device)
    }

    func beginAuth(_ start: DeviceMessage.AuthStart) -> HandshakeStep<HostMessage.AuthChallenge, String> {
        paired.contains(start.deviceId)
            ? .next(.init(eB: "eB", proof: "p"), start.deviceId)
            : .refused(.unauthorized(.init(reason: .unknownDevice)))
    }

    func finishAuth(_ state: String, _ finish: DeviceMessage.AuthFinish) -> HandshakeStep<Void, FakeChannel> {
        finish.proof == "ok" ? .next((), FakeChannel()) : .refused(.unauthorized(.init(reason: .badProof)))
    }
}

extension DeviceMessage {
    var text: String { String(decoding: encode(), as: UTF8.self) }
}

/// Hands binary payloads on as they are.
struct TransparentSealer: MediaSealing {
    func seal(_ message: consuming WireBuffer, then: (consuming WireBuffer) -> Void) { then(message) }
}
