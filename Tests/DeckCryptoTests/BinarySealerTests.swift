import DeckKit
import Foundation
import Synchronization
import Testing

@testable import DeckCrypto

/// The media sealer seals in place, in its message's own buffer, with one cipher context for every message:
/// the bytes must be exactly what sealing each message on its own gives (the wire format did not change).
@Suite struct BinarySealerTests {
    /// Nonces 1, 2, 3… (each byte the message's number), so a test knows what each message used.
    static func countingNonces() -> @Sendable () -> Data {
        let next = Mutex<UInt8>(0)
        return {
            next.withLock {
                $0 += 1
                return Data(repeating: $0, count: ChaChaPoly.nonceSize)
            }
        }
    }

    static func sealed(_ sealer: BinarySealer, _ payload: Data) -> Data {
        var out = Data()
        sealer.seal(WireBuffer(copying: payload)) { out = $0.data }
        return out
    }

    @Test func inPlaceSealsEqualSealingEachMessageAloneByteForByte() throws {
        let key = SecureRandom.bytes(32)
        let sealer = BinarySealer(key: key, nonces: Self.countingNonces())
        // Sizes around the AEAD's 64-byte blocks and beyond a 64 KiB WebSocket frame; the context is reused.
        for (index, size) in [0, 1, 63, 64, 65, 300, 70_000, 5].enumerated() {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
            let seq = UInt64(index + 1)
            let nonce = Data(repeating: UInt8(seq), count: ChaChaPoly.nonceSize)
            let alone = try ChaChaPoly.seal(payload, key: key, nonce: nonce, ad: SecureChannel.binaryAD(seq))
            #expect(Self.sealed(sealer, payload) == Bytes.bigEndian(seq) + nonce + alone, "message \(seq), \(size) B")
        }
    }

    @Test func seqAndNonceAdvanceAndEveryTagVerifies() throws {
        var (device, host) = SecureChannelTests.channels()
        let frames = (0..<3).map { Self.sealed(host.binarySealer, Data(repeating: UInt8($0), count: 1000)) }
        #expect(frames.map { Bytes.readBigEndian($0) } == [1, 2, 3])
        #expect(Set(frames.map { $0.subdata(in: 8..<20) }).count == 3, "a fresh nonce for every message")
        for (index, frame) in frames.enumerated() {
            #expect(try device.openBinary(frame) == Data(repeating: UInt8(index), count: 1000))
        }
        var flipped = Self.sealed(host.binarySealer, Data([1, 2, 3]))
        flipped[30] ^= 0x80
        #expect(throws: SealError.badSeal) { try device.openBinary(flipped) }
    }

    @Test func aBufferOfItsOwnIsSealedWhereItLies() {
        let (_, host) = SecureChannelTests.channels()
        let message = WireBuffer(copying: Data(repeating: 9, count: 4096))
        let before = message.withUnsafeBytes { $0.baseAddress! }
        var sealed = WireBuffer()
        host.binarySealer.seal(consume message) { sealed = $0 }
        // seq and nonce went into the room in front; the ciphertext is still where the plaintext was.
        #expect(sealed.withUnsafeBytes { $0.baseAddress! } == before - 20)
        #expect(sealed.count == 4096 + SecureChannel.binaryOverhead)
    }

    @Test func aSharedBufferIsCopiedBeforeSealingSoTheOtherValueKeepsItsBytes() throws {
        var (device, host) = SecureChannelTests.channels()
        let payload = Data(repeating: 5, count: 2048)
        let message = WireBuffer(copying: payload)
        let kept = message
        var sealed = Data()
        host.binarySealer.seal(message) { sealed = $0.data }
        #expect(kept.data == payload)
        #expect(try device.openBinary(sealed) == payload)
    }
}
