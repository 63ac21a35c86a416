import Foundation
import Testing

@testable import DeckCrypto

@Suite struct PrimitiveTests {
    @Test func hkdfMatchesRFC5869() throws {
        let cases = try Vectors.cases("rfc5869-hkdf.json")
        #expect(cases.count == 3)
        for entry in cases {
            let length = try #require(entry["length"] as? Int)
            let okm = try HKDF.derive(
                ikm: Vectors.bytes(entry, "ikm"), salt: Vectors.bytes(entry, "salt"),
                info: Vectors.bytes(entry, "info"), length: length)
            #expect(okm == (try Vectors.bytes(entry, "okm")))
            // HKDF-Extract is HMAC(salt, IKM), which checks the HMAC primitive against the same RFC.
            let prk = HMACSHA256.mac(key: try Vectors.bytes(entry, "salt"), message: try Vectors.bytes(entry, "ikm"))
            #expect(prk == (try Vectors.bytes(entry, "prk")))
        }
    }

    @Test func aeadSealsAndOpensRFC8439() throws {
        let cases = try Vectors.cases("rfc8439-aead.json")
        #expect(cases.count == 2)
        for entry in cases {
            let key = try Vectors.bytes(entry, "key")
            let nonce = try Vectors.bytes(entry, "nonce")
            let ad = try Vectors.bytes(entry, "aad")
            let expected = try Vectors.bytes(entry, "ciphertext") + Vectors.bytes(entry, "tag")
            let plaintext = try Vectors.bytes(entry, "plaintext")
            #expect(try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, ad: ad) == expected)
            #expect(try ChaChaPoly.open(expected, key: key, nonce: nonce, ad: ad) == plaintext)
        }
    }

    /// RFC 8439 §A.3 #5–#11 sit on the final reduction's and the carries' edges, which no AEAD vector reaches.
    @Test func poly1305MatchesRFC8439EdgeVectors() throws {
        let cases = try Vectors.cases("rfc8439-poly1305.json")
        #expect(cases.count == 7)
        for entry in cases {
            let tag = try Poly1305.tag(key: Vectors.bytes(entry, "key"), message: Vectors.bytes(entry, "message"))
            #expect(tag == (try Vectors.bytes(entry, "tag")), "\(entry["name"] ?? "")")
        }
        #expect(throws: CryptoError.self) { try Poly1305.tag(key: Data(count: 31), message: Data()) }
    }

    @Test func aeadRefusesTamperedTag() throws {
        let entry = try #require(try Vectors.cases("rfc8439-aead.json").first)
        var sealed = try Vectors.bytes(entry, "ciphertext") + Vectors.bytes(entry, "tag")
        sealed[sealed.count - 1] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) {
            try ChaChaPoly.open(
                sealed, key: Vectors.bytes(entry, "key"), nonce: Vectors.bytes(entry, "nonce"),
                ad: Vectors.bytes(entry, "aad"))
        }
    }

    @Test func aeadHandlesEmptyPlaintextAndAD() throws {
        let key = SecureRandom.bytes(32)
        let box = try ChaChaPoly.sealBox(Data(), key: key, ad: Data())
        #expect(box.count == 12 + 16)
        #expect(try ChaChaPoly.openBox(box, key: key, ad: Data()) == Data())
        #expect(throws: CryptoError.authenticationFailed) { try ChaChaPoly.openBox(box, key: key, ad: Data("x".utf8)) }
    }

    @Test func sha256OfABC() {
        // FIPS 180-2 Appendix B.1.
        let digest = SHA256.hash(Data("abc".utf8))
        #expect(Bytes.hex(digest) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha256ReadInPiecesIsTheDigestOfTheWhole() {
        // FIPS 180-2 Appendix B.2's message, handed over in pieces of 7 bytes.
        let message = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var offset = 0
        let digest = SHA256.hash(reading: {
            defer { offset = min(offset + 7, message.count) }
            return message.subdata(in: offset..<min(offset + 7, message.count))
        })
        #expect(digest.map(Bytes.hex) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(reading: { Data() }) == SHA256.hash(Data()))
    }

    @Test func ecdhAgreesBothWays() throws {
        let alice = try P256KeyPair()
        let bob = try P256KeyPair()
        let shared = try alice.sharedSecret(with: bob.publicKey)
        #expect(shared.count == 32)
        #expect(shared == (try bob.sharedSecret(with: alice.publicKey)))
    }

    @Test func pointsOffTheCurveAreRefused() throws {
        var offCurve = Data([0x04]) + Data(repeating: 0xff, count: 64)
        #expect(throws: CryptoError.invalidPoint) { try P256Point(decoding: offCurve) }
        offCurve = Data(repeating: 0, count: 65)
        #expect(throws: CryptoError.invalidPoint) { try P256Point(decoding: offCurve) }
        #expect(throws: CryptoError.invalidPoint) { try P256Point(decoding: Data([0x04, 1, 2])) }
    }

    @Test func pointArithmeticIsConsistent() throws {
        let two = try P256Scalar(reducing: Data([2]))
        let g = try P256.group.generator
        let doubled = try g.adding(g)
        #expect(try doubled.uncompressed() == (try g.multiplied(by: two).uncompressed()))
        #expect(try g.adding(g.negated()).isInfinity)
        #expect(doubled.isOnCurve)
        #expect(try P256Point(decoding: Spake2.mEncoded).uncompressed().count == 65)
    }

    @Test func scalarReductionWrapsTheOrder() throws {
        let reduced = try P256Scalar(reducing: P256.group.order + Data())
        #expect(reduced.isZero)
        let wide = try P256Scalar(reducing: Data([1]) + P256.group.order)
        // 2^256 + n ≡ 2^256 (mod n); 2^256 − n fits in 32 bytes, so the reduction must change the value.
        #expect(wide.bytes != Data(P256.group.order.suffix(32)))
        #expect(wide.bytes.count == 32)
    }

    @Test func hexRoundTrips() {
        #expect(Bytes.fromHex("00ff10") == Data([0, 255, 16]))
        #expect(Bytes.fromHex("0g") == nil)
        #expect(Bytes.fromHex("abc") == nil)
        #expect(Bytes.hex(Data([0, 255, 16])) == "00ff10")
    }
}
