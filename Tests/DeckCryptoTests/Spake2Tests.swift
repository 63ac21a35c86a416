import Foundation
import Testing

@testable import DeckCrypto

@Suite struct Spake2Tests {
    @Test func matchesRFC9382AppendixB() throws {
        let cases = try Vectors.cases("rfc9382-p256.json")
        #expect(cases.count == 4)
        for entry in cases {
            let w = try P256Scalar(reducing: Vectors.bytes(entry, "w"))
            let idA = try Vectors.bytes(entry, "idA")
            let idB = try Vectors.bytes(entry, "idB")
            let a = try Spake2(
                role: .a, w: w, scalar: P256Scalar(reducing: Vectors.bytes(entry, "x")), idA: idA, idB: idB)
            let b = try Spake2(
                role: .b, w: w, scalar: P256Scalar(reducing: Vectors.bytes(entry, "y")), idA: idA, idB: idB)
            #expect(a.share == (try Vectors.bytes(entry, "pA")))
            #expect(b.share == (try Vectors.bytes(entry, "pB")))
            let keysA = try a.finish(peerShare: b.share)
            let keysB = try b.finish(peerShare: a.share)
            #expect(keysA == keysB)
            #expect(keysA.transcript == (try Vectors.bytes(entry, "TT")))
            for (field, value) in [
                ("Ke", keysA.ke), ("Ka", keysA.ka), ("KcA", keysA.kcA), ("KcB", keysA.kcB), ("cA", keysA.cA),
                ("cB", keysA.cB),
            ] {
                #expect(value == (try Vectors.bytes(entry, field)), "\(field)")
            }
        }
    }

    @Test func transcriptCarriesK() throws {
        // K sits in TT as the 5th length-prefixed field; check it against the vector's K.
        let entry = try #require(try Vectors.cases("rfc9382-p256.json").first)
        let tt = try Vectors.bytes(entry, "TT")
        let k = try Vectors.bytes(entry, "K")
        #expect(tt.range(of: Bytes.lengthPrefixed(k)) != nil)
    }

    @Test func samePinAgreesAndWrongPinDoesNot() throws {
        let idA = Data("TouchDeck device".utf8)
        let idB = Data("TouchDeck host".utf8)
        let device = try Spake2(role: .a, w: Spake2.passwordScalar(pin: "123456"), idA: idA, idB: idB)
        let host = try Spake2(role: .b, w: Spake2.passwordScalar(pin: "123456"), idA: idA, idB: idB)
        let wrong = try Spake2(role: .b, w: Spake2.passwordScalar(pin: "123457"), idA: idA, idB: idB)
        #expect(try device.finish(peerShare: host.share).cA == (try host.finish(peerShare: device.share).cA))
        #expect(try device.finish(peerShare: wrong.share).ke != (try wrong.finish(peerShare: device.share).ke))
    }

    @Test func shareThatCancelsTheMaskGivesKeysThatMatchNothing() throws {
        // pA = w·M makes the host's K the point at infinity. The RFC says abort, but refusing would confirm the
        // guessed PIN for free (PROTOCOL §3): the host carries on with a random K, so nothing can match it.
        let w = try Spake2.passwordScalar(pin: "000000")
        let host = try Spake2(role: .b, w: w, idA: Data(), idB: Data())
        let crafted = try P256Point(decoding: Spake2.mEncoded).multiplied(by: w).uncompressed()
        let first = try host.finish(peerShare: crafted)
        let second = try host.finish(peerShare: crafted)
        #expect(first.cA != second.cA && first.ke != second.ke)
        // K keeps a point's 65 bytes, so the transcript has the shape an honest exchange gives.
        let honest = try host.finish(peerShare: Spake2(role: .a, w: w, idA: Data(), idB: Data()).share)
        #expect(first.transcript.count == honest.transcript.count)
    }

    @Test func garbageSharesAreRefused() throws {
        let device = try Spake2(role: .a, w: Spake2.passwordScalar(pin: "000000"), idA: Data(), idB: Data())
        for garbage in [
            Data(), Data([4]), Data(repeating: 4, count: 65), Spake2.mEncoded, Data(repeating: 0, count: 70),
        ] {
            #expect(throws: CryptoError.invalidPoint) { try device.finish(peerShare: garbage) }
        }
    }
}
