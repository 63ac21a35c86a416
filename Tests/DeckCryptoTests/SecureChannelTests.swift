import DeckKit
import Foundation
import Testing

@testable import DeckCrypto

/// The seed's attack table (part 7) plus issue 3's rows, against real channel pairs.
@Suite struct SecureChannelTests {
    /// A device channel and a host channel that talk to each other.
    static func channels() -> (device: SecureChannel, host: SecureChannel) {
        let toHost = SecureRandom.bytes(32)
        let toDevice = SecureRandom.bytes(32)
        return (
            SecureChannel(sendKey: toHost, receiveKey: toDevice), SecureChannel(sendKey: toDevice, receiveKey: toHost)
        )
    }

    static let authorized = Data(#"{"type":"authorized"}"#.utf8)

    @Test func hostSealedFrameOpensOnDevice() throws {
        var (device, host) = Self.channels()
        let frame = host.sealBinary(Data([7, 8, 9]))
        #expect(frame.count == 3 + SecureChannel.binaryOverhead)
        #expect(try device.openBinary(frame) == Data([7, 8, 9]))
        #expect(try device.open(host.seal(Self.authorized)) == Self.authorized)
    }

    @Test func flippedLastByteIsRefused() {
        var (device, host) = Self.channels()
        var frame = host.sealBinary(Data([1, 2, 3]))
        frame[frame.count - 1] ^= 0x01
        #expect(throws: SealError.badSeal) { try device.openBinary(frame) }
        var envelope = host.seal(Self.authorized)
        var box = Data(base64Encoded: envelope.box)!
        box[box.count - 1] ^= 0x01
        envelope.box = box.base64EncodedString()
        #expect(throws: SealError.badSeal) { try device.open(envelope) }
    }

    @Test func changedSeqIsRefused() {
        var (device, host) = Self.channels()
        var frame = host.sealBinary(Data([1]))
        frame[7] = 2
        #expect(throws: SealError.badSeal) { try device.openBinary(frame) }
        var envelope = host.seal(Self.authorized)
        envelope.seq = 2
        #expect(throws: SealError.badSeal) { try device.open(envelope) }
    }

    @Test func replayedFrameIsRefused() throws {
        var (device, host) = Self.channels()
        let frame = host.sealBinary(Data([1]))
        _ = try device.openBinary(frame)
        #expect(throws: SealError.replayed) { try device.openBinary(frame) }
        let envelope = host.seal(Self.authorized)
        _ = try device.open(envelope)
        #expect(throws: SealError.replayed) { try device.open(envelope) }
    }

    @Test func olderSeqAfterNewerIsRefused() throws {
        var (device, host) = Self.channels()
        let first = host.sealBinary(Data([1]))
        let second = host.sealBinary(Data([2]))
        _ = try device.openBinary(second)
        #expect(throws: SealError.replayed) { try device.openBinary(first) }
    }

    @Test func textBoxCannotBeReplayedAsBinary() throws {
        var (device, host) = Self.channels()
        let envelope = host.seal(Self.authorized)
        let forged = Bytes.bigEndian(envelope.seq) + Data(base64Encoded: envelope.box)!
        #expect(throws: SealError.badSeal) { try device.openBinary(forged) }
    }

    @Test func binaryResentAsTextIsRefused() throws {
        var (device, host) = Self.channels()
        let frame = host.sealBinary(Self.authorized)
        let forged = SecureEnvelope(seq: Bytes.readBigEndian(frame), box: frame.dropFirst(8).base64EncodedString())
        #expect(throws: SealError.badSeal) { try device.open(forged) }
    }

    @Test func messageReflectedToItsSenderIsRefused() {
        var (_, host) = Self.channels()
        let envelope = host.seal(Self.authorized)
        let frame = host.sealBinary(Data([1]))
        #expect(throws: SealError.badSeal) { try host.open(envelope) }
        #expect(throws: SealError.badSeal) { try host.openBinary(frame) }
    }

    @Test func binaryAndTextCountSeparately() throws {
        var (device, host) = Self.channels()
        for _ in 0..<3 { _ = try device.open(host.seal(Self.authorized)) }
        let frame = host.sealBinary(Data([7]))
        #expect(frame.prefix(8) == Data([0, 0, 0, 0, 0, 0, 0, 1]))
        #expect(try device.openBinary(frame) == Data([7]))
        #expect(host.seal(Self.authorized).seq == 4)
    }

    @Test func truncatedAndGarbageInputIsMalformed() {
        var (device, _) = Self.channels()
        #expect(throws: SealError.malformed) { try device.openBinary(Data(repeating: 1, count: 35)) }
        #expect(throws: SealError.malformed) { try device.open(SecureEnvelope(seq: 1, box: "not base64!")) }
        #expect(throws: SealError.malformed) { try device.open(SecureEnvelope(seq: 1, box: "AAAA")) }
        #expect(throws: SealError.malformed) { try device.open(SecureEnvelope(seq: 0, box: "")) }
    }

    @Test func sealErrorsMapToBadSeal() {
        for error in [SealError.badSeal, .replayed, .malformed] {
            let reply = HostMessage.ErrorReply(for: error)
            #expect(reply.code == .badSeal)
        }
    }
}
