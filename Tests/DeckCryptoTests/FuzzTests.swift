import DeckKit
import Foundation
import Testing

@testable import DeckCrypto

/// Seeded mutation tests of everything in DeckCrypto that reads a peer's bytes. Besides "no trap", each
/// checks the security property: only what the sender sealed opens, only the genuine confirmation pairs,
/// only the genuine proof authorizes.
@Suite struct SealFuzzTests {
    static let toHost = Data(repeating: 0x11, count: 32)
    static let toDevice = Data(repeating: 0x22, count: 32)
    static let seqs: [UInt64] = [0, 1, 2, 3, 17, UInt64(Int64.max), 1 << 63, UInt64.max - 1, UInt64.max]

    /// A mutated copy of a sealed text envelope: its seq, its box bytes, or its base64 text.
    static func mutated(_ envelope: SecureEnvelope, _ rng: inout FuzzRNG) -> SecureEnvelope {
        var out = envelope
        switch rng.below(4) {
        case 0: out.seq = rng.chance(50) ? rng.pick(seqs) : rng.next()
        case 1:
            let box = Data(base64Encoded: envelope.box) ?? Data()
            out.box = ByteMutator.mutate(box, rng: &rng).base64EncodedString()
        case 2: out.box = String(decoding: ByteMutator.mutate(Data(envelope.box.utf8), rng: &rng), as: UTF8.self)
        default: break
        }
        return out
    }

    @Test func onlyWhatTheDeviceSealedOpens() throws {
        var rng = FuzzRNG(seed: 0x5EED_0501)
        var device = SecureChannel(sendKey: Self.toHost, receiveKey: Self.toDevice)
        var host = SecureChannel(sendKey: Self.toDevice, receiveKey: Self.toHost)
        let sealed = (0..<250).map { device.seal(Data("{\"n\":\($0)}".utf8)) }
        var (opened, lastOpened) = (0, UInt64(0))
        for i in 0..<6000 {
            // The next envelope, or one already used (a replay); a jump ahead would make the rest replays.
            let next = min(Int(lastOpened), sealed.count - 1)
            let original = rng.chance(80) ? sealed[next] : rng.pick(Array(sealed[...next]))
            let envelope = Self.mutated(original, &rng)
            guard let inner = try? host.open(envelope) else { continue }
            let genuine = sealed.first { $0.seq == envelope.seq }
            #expect(Data(base64Encoded: envelope.box) == Data(base64Encoded: genuine?.box ?? ""), "#\(i)")
            #expect(inner == Data("{\"n\":\(envelope.seq - 1)}".utf8) && envelope.seq > lastOpened, "#\(i)")
            (opened, lastOpened) = (opened + 1, envelope.seq)
        }
        #expect(opened > 100)
    }

    @Test func onlyWhatTheHostSealedOpensAsBinary() {
        var rng = FuzzRNG(seed: 0x5EED_0502)
        let host = SecureChannel(sendKey: Self.toDevice, receiveKey: Self.toHost)
        var device = SecureChannel(sendKey: Self.toHost, receiveKey: Self.toDevice)
        let frames = (0..<250).map { host.sealBinary(Data([UInt8($0)]) + Data(count: $0)) }
        var (opened, lastSeq) = (0, UInt64(0))
        for i in 0..<6000 {
            // The next frame, or one already used (a replay); a jump ahead would make the rest replays.
            let next = min(Int(lastSeq), frames.count - 1)
            let original = rng.chance(80) ? frames[next] : rng.pick(Array(frames[...next]))
            let frame = rng.chance(75) ? ByteMutator.mutate(original, rng: &rng, pool: frames) : original
            // Slices that do not start at index 0 must read the same.
            let input = rng.chance(30) ? (Data([0xAA]) + frame).dropFirst() : frame
            guard let inner = try? device.openBinary(input) else { continue }
            #expect(frames.contains(frame) && inner.first.map(Int.init) == inner.count - 1, "#\(i)")
            #expect(Bytes.readBigEndian(frame) > lastSeq, "#\(i)")
            (opened, lastSeq) = (opened + 1, Bytes.readBigEndian(frame))
        }
        #expect(opened > 100)
    }

    /// A box sealed by hand at the largest seq opens once; every later one counts as replayed.
    @Test func largestSeqOpensOnceThenEverythingIsReplayed() throws {
        var host = SecureChannel(sendKey: Self.toDevice, receiveKey: Self.toHost)
        let box = try ChaChaPoly.sealBox(Data("{}".utf8), key: Self.toHost, ad: Data(String(UInt64.max).utf8))
        let last = SecureEnvelope(seq: UInt64.max, box: box.base64EncodedString())
        #expect(try host.open(last) == Data("{}".utf8))
        #expect(throws: SealError.replayed) { try host.open(last) }
        var device = SecureChannel(sendKey: Self.toHost, receiveKey: Self.toDevice)
        #expect(throws: SealError.replayed) { try host.open(device.seal(Data("{}".utf8))) }
        let frame = try ChaChaPoly.sealBox(
            Data([1]), key: Self.toHost, ad: SecureChannel.binaryAD(UInt64.max), header: Bytes.bigEndian(UInt64.max))
        var reader = SecureChannel(sendKey: Self.toDevice, receiveKey: Self.toHost)
        #expect(try reader.openBinary(frame) == Data([1]))
        #expect(throws: SealError.replayed) { try reader.openBinary(frame) }
    }

    @Test func randomBytesNeverOpen() {
        var rng = FuzzRNG(seed: 0x5EED_0503)
        var channel = SecureChannel(sendKey: Self.toDevice, receiveKey: Self.toHost)
        for _ in 0..<4000 {
            let bytes = rng.bytes(rng.below(80))
            #expect((try? channel.openBinary(bytes)) == nil)
            let envelope = SecureEnvelope(seq: rng.pick(Self.seqs), box: bytes.base64EncodedString())
            #expect((try? channel.open(envelope)) == nil)
        }
    }
}

/// P-256 points from arbitrary bytes.
@Suite struct PointFuzzTests {
    static let seeds: [Data] = {
        let g = (try? P256KeyPair(scalar: P256Scalar(reducing: Data([1])))).map(\.publicKey) ?? Data()
        let keys = (0..<4).compactMap { _ in try? P256KeyPair().publicKey }
        return [g, Spake2.mEncoded, Spake2.nEncoded] + keys
    }()

    @Test func anyBytesDecodeToAPointOnTheCurveOrThrow() {
        var rng = FuzzRNG(seed: 0x5EED_0601)
        #expect(Self.seeds.count == 7 && Self.seeds[0].count == 65)
        var decoded = 0
        for i in 0..<5000 {
            var bytes = ByteMutator.mutate(rng.pick(Self.seeds), rng: &rng, pool: Self.seeds)
            if rng.chance(20) { bytes = Data([rng.pick([0, 2, 3, 4, 5, 6, 7])]) + rng.bytes(rng.pick([32, 64])) }
            guard let point = try? P256Point(decoding: bytes) else { continue }
            decoded += 1
            #expect(point.isOnCurve && !point.isInfinity, "#\(i)")
            let round = try? point.uncompressed()
            #expect(round?.count == 65, "#\(i)")
            if bytes.first == 4 { #expect(round == bytes, "#\(i)") }
            #expect(round.map { $0[1..<33] == bytes[1..<33] } == true, "#\(i): x differs")
        }
        #expect(decoded > 100)
    }

    @Test func sharedSecretWithAnyPeerKeyIsThirtyTwoBytesOrThrows() throws {
        var rng = FuzzRNG(seed: 0x5EED_0602)
        let mine = try P256KeyPair()
        for i in 0..<1500 {
            let peer = ByteMutator.mutate(rng.pick(Self.seeds), rng: &rng)
            guard let secret = try? mine.sharedSecret(with: peer) else { continue }
            #expect(secret.count == 32, "#\(i)")
        }
    }
}
