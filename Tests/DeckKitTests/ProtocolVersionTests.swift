import DeckKit
import Testing

@Test func featuresFollowTheLowerNumber() {
    #expect(ProtocolVersion.agreed(device: 2, host: 1) == 1)
    #expect(ProtocolVersion.agreed(device: 1, host: 2) == 1)
    #expect(ProtocolVersion.agreed(device: 2, host: 2) == 2)
}

@Test func gapsAreNamedForTheSideThatShouldUpdate() {
    #expect(ProtocolVersion.gap(device: 2, host: 1) == .hostOutdated)
    #expect(ProtocolVersion.gap(device: 1, host: 2) == .deviceOutdated)
    #expect(ProtocolVersion.gap(device: 2, host: 2) == .none)
}
