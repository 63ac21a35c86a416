import Testing

@testable import DeckCrypto

@Test func errorsCompare() { #expect(CryptoError.malformed("a") != CryptoError.openssl("a")) }
