import DeckDesktop
import DeckKit
import DeckTransport
import Testing

@testable import DeckHost

/// The transport's front door limits connections until they authorize; the host must tell it when one does,
/// and before the device hears so, or a device's first large message would still meet the stranger's limit.
@Suite struct ConnectionLimitTests {
    @Test func theTransportHearsOfAnAuthorizationBeforeTheDevice() async throws {
        let harness = try HostHarness()
        let credentials = try await harness.pair(name: "iPad")
        let stranger = await harness.open()
        await harness.send(.hello(.init(name: "stranger")), on: stranger)
        #expect(harness.link.authorizedAfterSending(stranger) == nil, "saying hello is not authorizing")

        let device = try await harness.authorize(credentials)
        let sent = harness.link.sent(to: device.id)
        let welcome = try #require(sent.firstIndex { !$0.contains("authChallenge") && $0.contains("secure") })
        #expect(harness.link.authorizedAfterSending(device.id) == welcome, "authorize comes before `authorized`")
    }
}
