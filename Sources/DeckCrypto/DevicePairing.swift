import DeckKit
import Foundation

/// What a device keeps after pairing: its id and secret (the secret is never logged).
public struct DeviceCredentials: Equatable, Sendable {
    public var deviceId: String
    public var secret: Data

    public init(deviceId: String, secret: Data) {
        self.deviceId = deviceId
        self.secret = secret
    }
}

/// Why the device side gave up on pairing.
public enum DevicePairingError: Error, Equatable, Sendable {
    /// A host message that is not what this stage expects, or not well formed.
    case badMessage
    /// The host's `cB` is wrong: it does not know the PIN (or the PIN was mistyped).
    case hostNotConfirmed
    /// The secret's box did not open.
    case badBox
    /// The host refused (`pairingFailed`).
    case refused(HostMessage.PairingFailed)
}

/// The device's side of pairing (PROTOCOL.md §3): `start` to send first, then one method per host reply.
public struct DevicePairing: Sendable {
    private let party: Spake2
    private var keys: Spake2.Keys?
    /// The `pairStart` to send.
    public let start: DeviceMessage.PairStart

    /// A device that will pair with `pin`, announcing `name`.
    public init(pin: String, name: String) throws {
        try self.init(party: PairingKeys.party(.a, pin: pin), name: name)
    }

    /// A device from an explicit SPAKE2 party, for known-answer tests.
    public init(party: Spake2, name: String) {
        self.party = party
        start = DeviceMessage.PairStart(name: name, pA: party.share.base64EncodedString())
    }

    /// Takes `pairChallenge`; returns `pairConfirm` (the device confirms first).
    public mutating func receive(_ challenge: HostMessage.PairChallenge) throws(DevicePairingError)
        -> DeviceMessage.PairConfirm
    {
        guard let pB = PairingKeys.point(base64: challenge.pB), let derived = try? party.finish(peerShare: pB) else {
            throw .badMessage
        }
        keys = derived
        return DeviceMessage.PairConfirm(cA: derived.cA.base64EncodedString())
    }

    /// Takes `paired`: checks `cB` before anything else, then opens the secret.
    public func receive(_ paired: HostMessage.Paired) throws(DevicePairingError) -> DeviceCredentials {
        guard let keys else { throw .badMessage }
        guard let cB = Data(base64Encoded: paired.cB), Bytes.constantTimeEqual(cB, keys.cB) else {
            throw .hostNotConfirmed
        }
        guard let box = Data(base64Encoded: paired.box), box.count == 12 + 32 + 16,
            let key = try? PairingKeys.boxKey(ke: keys.ke),
            let secret = try? ChaChaPoly.openBox(box, key: key, ad: Data(paired.deviceId.utf8))
        else { throw .badBox }
        return DeviceCredentials(deviceId: paired.deviceId, secret: secret)
    }
}
