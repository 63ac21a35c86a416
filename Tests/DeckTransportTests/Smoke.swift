import Testing

@testable import DeckTransport

@Test func errorsCompare() { #expect(TransportError.listen("a") != TransportError.certificate("a")) }
