import DeckKit
import Foundation

/// Why a sealed message was refused (PROTOCOL.md §5). All of them are answered with `error{code:"badSeal"}`.
public enum SealError: Error, Equatable, Sendable {
    /// The box did not open: tampered, wrong key, wrong associated data, or reflected to its sender.
    case badSeal
    /// It opened, but its seq is not greater than the last accepted one of its kind.
    case replayed
    /// Too short, not base64, or seq 0.
    case malformed
}

extension SealError: WireReportable {
    public var wireCode: WireErrorCode { .badSeal }

    public var wireMessage: String {
        switch self {
        case .badSeal: "sealed message did not open"
        case .replayed: "replayed sealed message"
        case .malformed: "malformed sealed message"
        }
    }
}

/// One authorized session's sealing state: a key per direction and a counter per kind (text, binary).
///
/// Text: `{"type":"secure","seq":N,"box":base64(nonce ‖ ciphertext ‖ tag)}` with AD = decimal N.
/// Binary: `seq(8, big-endian) ‖ nonce ‖ ciphertext ‖ tag` with AD = `"bin|" + N`. A value, owned by the
/// connection that uses it.
public struct SecureChannel: Sendable {
    /// Bytes a sealed binary message adds: seq 8 + nonce 12 + tag 16.
    public static let binaryOverhead = 36

    private let sendKey: Data
    private let receiveKey: Data
    private var sentText: UInt64 = 0
    private var sentBinary: UInt64 = 0
    private var receivedText: UInt64 = 0
    private var receivedBinary: UInt64 = 0

    /// A channel that seals with `sendKey` and opens with `receiveKey` (32 bytes each).
    public init(sendKey: Data, receiveKey: Data) {
        precondition(sendKey.count == 32 && receiveKey.count == 32, "channel keys are 32 bytes")
        self.sendKey = sendKey
        self.receiveKey = receiveKey
    }

    /// Seals one inner text message (its UTF-8 JSON) into the next `secure` envelope.
    public mutating func seal(_ inner: Data) -> SecureEnvelope {
        sentText += 1
        let box = Self.sealOrTrap(inner, key: sendKey, ad: Data(String(sentText).utf8))
        return SecureEnvelope(seq: sentText, box: box.base64EncodedString())
    }

    /// Seals an inner message value.
    public mutating func seal(_ inner: HostMessage) -> SecureEnvelope { seal(inner.encode()) }

    /// Seals an inner message value.
    public mutating func seal(_ inner: DeviceMessage) -> SecureEnvelope { seal(inner.encode()) }

    /// Opens a `secure` envelope; returns the inner JSON bytes.
    public mutating func open(_ envelope: SecureEnvelope) throws(SealError) -> Data {
        guard envelope.seq > 0, let box = Data(base64Encoded: envelope.box) else { throw .malformed }
        let inner = try Self.openBox(box, skipping: 0, key: receiveKey, ad: Data(String(envelope.seq).utf8))
        guard envelope.seq > receivedText else { throw .replayed }
        receivedText = envelope.seq
        return inner
    }

    /// Seals one binary message.
    public mutating func sealBinary(_ payload: Data) -> Data {
        sentBinary += 1
        return Self.sealOrTrap(payload, key: sendKey, ad: Self.binaryAD(sentBinary), header: Bytes.bigEndian(sentBinary))
    }

    /// Opens one sealed binary message; returns the inner bytes.
    public mutating func openBinary(_ message: Data) throws(SealError) -> Data {
        guard message.count >= Self.binaryOverhead else { throw .malformed }
        let seq = Bytes.readBigEndian(message)
        guard seq > 0 else { throw .malformed }
        let inner = try Self.openBox(message, skipping: 8, key: receiveKey, ad: Self.binaryAD(seq))
        guard seq > receivedBinary else { throw .replayed }
        receivedBinary = seq
        return inner
    }

    static func binaryAD(_ seq: UInt64) -> Data { Data("bin|\(seq)".utf8) }

    private static func openBox(_ message: Data, skipping header: Int, key: Data, ad: Data) throws(SealError) -> Data {
        guard message.count >= header + ChaChaPoly.nonceSize + ChaChaPoly.tagSize else { throw .malformed }
        do {
            return try ChaChaPoly.openBox(message, skipping: header, key: key, ad: ad)
        } catch {
            throw .badSeal
        }
    }

    private static func sealOrTrap(_ plaintext: Data, key: Data, ad: Data, header: Data = Data()) -> Data {
        do {
            return try ChaChaPoly.sealBox(plaintext, key: key, ad: ad, header: header)
        } catch {
            // Key and nonce sizes are fixed by this type, so only a broken libcrypto gets here.
            preconditionFailure("ChaCha20-Poly1305 seal failed")
        }
    }
}
