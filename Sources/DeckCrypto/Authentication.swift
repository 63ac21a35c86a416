import DeckKit
import Foundation

/// The key schedule of PROTOCOL.md §4, shared by both sides.
public struct AuthKeys: Sendable, Equatable {
    /// th = SHA-256("TouchDeck auth v1" ‖ len(deviceId) ‖ deviceId ‖ eA ‖ eB).
    public var transcriptHash: Data
    public var hostProofKey: Data
    public var deviceProofKey: Data
    public var hostToDeviceKey: Data
    public var deviceToHostKey: Data

    static let label = Data("TouchDeck auth v1".utf8)

    /// Derives the four keys from the ECDH X coordinate `z` and the device secret.
    public init(deviceId: String, eA: Data, eB: Data, z: Data, secret: Data) throws {
        let th = SHA256.hash(Self.label + Bytes.lengthPrefixed(Data(deviceId.utf8)) + eA + eB)
        let okm = try HKDF.derive(ikm: z, salt: secret, info: Self.label + th, length: 128)
        transcriptHash = th
        hostProofKey = okm.subdata(in: 0..<32)
        deviceProofKey = okm.subdata(in: 32..<64)
        hostToDeviceKey = okm.subdata(in: 64..<96)
        deviceToHostKey = okm.subdata(in: 96..<128)
    }

    /// HMAC-SHA256(hostProofKey, "host" ‖ th).
    public var hostProof: Data { HMACSHA256.mac(key: hostProofKey, message: Data("host".utf8) + transcriptHash) }
    /// HMAC-SHA256(deviceProofKey, "device" ‖ th).
    public var deviceProof: Data {
        HMACSHA256.mac(key: deviceProofKey, message: Data("device".utf8) + transcriptHash)
    }
}

/// Why the device side refused the host during authentication.
public enum DeviceAuthError: Error, Equatable, Sendable {
    /// `authChallenge` was not well formed (bad base64, not a point).
    case badMessage
    /// The host's proof is wrong: it does not hold this device's secret.
    case badHostProof
}

/// The device's side of authentication: `start` to send, then `receive(challenge)` gives `authFinish` and the
/// channel. The ephemeral key lives only in this value.
public struct DeviceAuth: Sendable {
    private let credentials: DeviceCredentials
    private let ephemeral: P256KeyPair
    /// The `authStart` to send.
    public let start: DeviceMessage.AuthStart

    public init(credentials: DeviceCredentials) throws {
        self.credentials = credentials
        ephemeral = try P256KeyPair()
        start = DeviceMessage.AuthStart(deviceId: credentials.deviceId, eA: ephemeral.publicKey.base64EncodedString())
    }

    /// Checks the host's proof; returns `authFinish` and a channel that seals with deviceToHostKey.
    public func receive(_ challenge: HostMessage.AuthChallenge) throws(DeviceAuthError)
        -> (finish: DeviceMessage.AuthFinish, channel: SecureChannel)
    {
        guard let eB = PairingKeys.point(base64: challenge.eB), let proof = Data(base64Encoded: challenge.proof),
            let z = try? ephemeral.sharedSecret(with: eB),
            let keys = try? AuthKeys(
                deviceId: credentials.deviceId, eA: ephemeral.publicKey, eB: eB, z: z, secret: credentials.secret)
        else { throw .badMessage }
        guard Bytes.constantTimeEqual(proof, keys.hostProof) else { throw .badHostProof }
        let channel = SecureChannel(sendKey: keys.deviceToHostKey, receiveKey: keys.hostToDeviceKey)
        return (DeviceMessage.AuthFinish(proof: keys.deviceProof.base64EncodedString()), channel)
    }
}

/// The host's side of authentication on one connection, as a value that returns what to send.
public struct HostAuth: Sendable {
    /// What the caller does after `authFinish`.
    public enum Outcome: Sendable {
        /// The device is authorized; use this channel from now on.
        case authorized(deviceId: String, channel: SecureChannel)
        /// Send this refusal and close the connection.
        case refuse(HostMessage)
        /// Send this and keep the connection (an `authFinish` with no `authStart` before it).
        case reply(HostMessage)
    }

    private struct Pending: Sendable {
        var deviceId: String
        var keys: AuthKeys
    }

    private var pending: Pending?

    public init() {}

    /// Answers `authStart`. `secret` is the registry's secret for `start.deviceId` (nil when unknown).
    public mutating func receive(_ start: DeviceMessage.AuthStart, secret: Data?) -> HostMessage {
        pending = nil
        guard let secret else { return .unauthorized(.init(reason: .unknownDevice)) }
        guard let eA = PairingKeys.point(base64: start.eA), let ephemeral = try? P256KeyPair(),
            let z = try? ephemeral.sharedSecret(with: eA),
            let keys = try? AuthKeys(deviceId: start.deviceId, eA: eA, eB: ephemeral.publicKey, z: z, secret: secret)
        else { return .error(.init(code: .badMessage, message: "authStart: eA is not a P-256 point")) }
        pending = Pending(deviceId: start.deviceId, keys: keys)
        return .authChallenge(
            .init(eB: ephemeral.publicKey.base64EncodedString(), proof: keys.hostProof.base64EncodedString()))
    }

    /// Checks the device's proof.
    public mutating func receive(_ finish: DeviceMessage.AuthFinish) -> Outcome {
        guard let current = pending else { return .reply(.unauthorized(.init(reason: .notAuthorized))) }
        pending = nil
        let proof = Data(base64Encoded: finish.proof) ?? Data()
        guard Bytes.constantTimeEqual(proof, current.keys.deviceProof) else {
            return .refuse(.unauthorized(.init(reason: .badProof)))
        }
        let channel = SecureChannel(sendKey: current.keys.hostToDeviceKey, receiveKey: current.keys.deviceToHostKey)
        return .authorized(deviceId: current.deviceId, channel: channel)
    }
}
