import DeckDesktop
import DeckTransport
import Foundation
import Testing

@testable import DeckHost

/// One address everywhere (issue 19, point 10): the setup page's QR code and first link are the address the
/// daemon gives `touchdeck status`, `pair` and `make run` — the IPv4 address, not `name.local`, which is dead
/// when mDNS is — and `touchdeck pair`'s code is that address's plain-HTTP setup page.
@Suite struct SetupAddressTests {
    final class Drawn: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var texts: [String] { lock.withLock { stored } }
        func draw(_ text: String) -> String? {
            lock.withLock { stored.append(text) }
            return "<svg></svg>"
        }
    }

    func page(_ routes: SetupRoutes) throws -> String {
        let response = try #require(routes.respond(to: HTTPRequest(path: "/setup", isTLS: false, isLoopback: false)))
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func theQRCodeAndTheLinkAreTheIPv4AddressNotTheMDNSName() throws {
        let drawn = Drawn()
        let routes = SetupRoutes(
            hostName: "desk", addresses: ["desk.local", "192.168.1.5", "fe80::1"], port: 52801, caPEM: Data(),
            qr: drawn.draw)
        #expect(drawn.texts == ["https://192.168.1.5:52801/"])
        let html = try page(routes)
        #expect(html.contains("<a id=\"app-link\" href=\"https://192.168.1.5:52801/\">"))
        let others = try #require(html.range(of: "class=\"other-addresses\""))
        #expect(html[others.lowerBound...].contains("https://desk.local:52801/"))
        #expect(!html[..<others.lowerBound].contains("desk.local:52801"), "the mDNS name only as a fallback")
    }

    @Test func withoutAnIPv4AddressTheNameIsTheOne() {
        let drawn = Drawn()
        _ = SetupRoutes(
            hostName: "desk", addresses: ["desk.local", "fe80::1"], port: 52801, caPEM: Data(), qr: drawn.draw)
        #expect(drawn.texts == ["https://desk.local:52801/"])
    }

    /// On this computer, with every name and address certified: the page leads where the daemon points.
    @Test func theSetupPageLeadsToTheDaemonsOwnAddress() {
        let identity = LocalIdentity.current()
        let drawn = Drawn()
        _ = SetupRoutes(
            hostName: "here", addresses: HostDaemon.setupAddresses(within: identity), port: 52801, caPEM: Data(),
            qr: drawn.draw)
        #expect(drawn.texts == [HostDaemon.httpsAddress(port: 52801, within: identity)])
    }

    @Test func pairsCodeIsTheSetupPageOfTheSameAddressAndPort() {
        #expect(SetupLink.page(forApp: "https://192.168.1.5:52801/") == "http://192.168.1.5:52801/setup")
        #expect(SetupLink.page(forApp: "https://desk.local:4000/") == "http://desk.local:4000/setup")
        #expect(SetupLink.page(forApp: "http://desk.local/") == nil)
        #expect(SetupLink.page(forApp: "") == nil)
    }
}
