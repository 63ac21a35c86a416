import DeckKit
import DeckTransport
import Testing

@testable import DeckHost

/// Strangers cannot make the host run SPAKE2/ECDH for an unbounded number of sockets.
@Suite struct ConnectionLimitTests {
    @Test func connectionsWaitingToAuthorizeAreCappedWhileDevicesStillGetIn() async throws {
        let harness = try HostHarness()
        var waiting: [ConnectionID] = []
        for _ in 0..<DeckServer.maxUnauthorized { waiting.append(await harness.open()) }
        #expect(harness.link.closed.isEmpty)

        let refused = await harness.open()
        #expect(harness.link.closed == [refused])
        #expect(harness.link.closeCode(refused) == CloseCode.tryAgainLater)
        #expect(await harness.send(.hello(.init(name: "late")), on: refused).isEmpty, "a refused socket is not served")

        // Two strangers leave: there is room again for a device to pair on one socket and authorize on another.
        await harness.host.handle(.closed(waiting.removeFirst()))
        await harness.host.handle(.closed(waiting.removeFirst()))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        #expect(!device.inbox().isEmpty)
        #expect(harness.link.closed == [refused])
    }
}
