import DeckDesktop
import Testing

@testable import DeckHost

@Test func versionIsSet() { #expect(!HostVersion.string.isEmpty) }
