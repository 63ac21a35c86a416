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
/// connection that uses it, except its binary sending half (`binarySealer`), which media threads share.
public struct SecureChannel: Sendable {
    /// Bytes a sealed binary message adds: seq 8 + nonce 12 + tag 16.
    public static let binaryOverhead = 36

    private let sendKey: Data
    private let receiveKey: Data
    private var sentText: UInt64 = 0
    /// Seals binary messages for the device; a reference, so the video and sound threads seal with the same
    /// counter as the connection (copies of this channel share it too).
    public let binarySealer: BinarySealer
    private var receivedText: UInt64 = 0
    private var receivedBinary: UInt64 = 0

    /// A channel that seals with `sendKey` and opens with `receiveKey` (32 bytes each).
    public init(sendKey: Data, receiveKey: Data) {
        precondition(sendKey.count == 32 && receiveKey.count == 32, "channel keys are 32 bytes")
        self.sendKey = sendKey
        self.receiveKey = receiveKey
        binarySealer = BinarySealer(key: sendKey)
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

    /// Seals one binary message (a copy in and out; media seal `WireBuffer`s through `binarySealer`).
    public func sealBinary(_ payload: Data) -> Data {
        binarySealer.seal(payload)
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

    static func sealOrTrap(_ plaintext: Data, key: Data, ad: Data, header: Data = Data()) -> Data {
        do {
            return try ChaChaPoly.sealBox(plaintext, key: key, ad: ad, header: header)
        } catch {
            // Key and nonce sizes are fixed by this type, so only a broken libcrypto gets here.
            preconditionFailure("ChaCha20-Poly1305 seal failed")
        }
    }
}

/// The binary sending half of a `SecureChannel`: one counter, the device-bound key and one cipher context,
/// safe to call from any thread. `seal(_:then:)` runs `then` before the next message can be sealed, so a caller
/// that sends inside it puts messages on the wire in counter order (the device refuses a lower `seq` as a
/// replay). Messages are sealed in place in their `WireBuffer` (seq and nonce into the room in front, the tag
/// behind), and the context is keyed again with each message's fresh nonce instead of being made per message.
public final class BinarySealer: @unchecked Sendable {  // `sent` and `context` are only touched under `lock`
    private let key: Data
    private let lock = NSLock()
    private var sent: UInt64 = 0
    private let context: CipherContext
    private let nonces: @Sendable () -> Data

    /// `nonces` gives each message its nonce: fresh random bytes; tests pass known ones.
    init(key: Data, nonces: @escaping @Sendable () -> Data = { SecureRandom.bytes(ChaChaPoly.nonceSize) }) {
        self.key = key
        self.nonces = nonces
        do {
            context = try CipherContext()
        } catch {
            preconditionFailure("no memory for a cipher context")
        }
    }

    /// Seals one binary message with the next counter into one new `Data`, with a cipher context of its own
    /// (not the media path). Measured: reusing the sealer's context here made glibc give the freed 300 KB
    /// buffers back to the kernel every round (16× the page faults in `touchdeck-bench crypto`).
    public func seal(_ payload: Data) -> Data {
        lock.lock()
        defer { lock.unlock() }
        sent += 1
        return SecureChannel.sealOrTrap(
            payload, key: key, ad: SecureChannel.binaryAD(sent), header: Bytes.bigEndian(sent))
    }

    /// Seals `message` in place with the next counter, `seq ‖ nonce ‖ ciphertext ‖ tag`, and hands it to
    /// `then` while no other message can be sealed.
    public func seal(_ message: consuming WireBuffer, then: (consuming WireBuffer) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        let seq = advance { seq, nonce, ad in
            sealOrTrap { try context.seal(&message, key: key, nonce: nonce, ad: ad) }
            return seq
        }
        message.prepend(8) { $0.storeBytes(of: seq.bigEndian, as: UInt64.self) }
        then(message)
    }

    /// Runs `body` with the next counter, a fresh nonce and the counter's associated data; under `lock`.
    private func advance<R>(_ body: (UInt64, Data, UnsafeRawBufferPointer) -> R) -> R {
        sent += 1
        let seq = sent
        return BinaryAD.with(seq) { body(seq, nonces(), $0) }
    }

    private func sealOrTrap(_ seal: () throws -> Void) {
        do {
            try seal()
        } catch {
            // Key and nonce sizes are fixed by this type, so only a broken libcrypto gets here.
            preconditionFailure("ChaCha20-Poly1305 seal failed")
        }
    }
}

/// The associated data of sealed binary message `seq`, `"bin|" + decimal seq`, written on the stack: the
/// sealer needs it for every frame.
enum BinaryAD {
    static func with<R>(_ seq: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var digits = seq
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(digits % 10)
                digits /= 10
            } while digits > 0
            for letter in "bin|".utf8.reversed() {
                at -= 1
                buffer[at] = letter
            }
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[at...])))
        }
    }
}
