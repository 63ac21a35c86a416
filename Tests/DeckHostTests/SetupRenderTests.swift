import DeckDesktop
import Foundation
import Testing

@testable import DeckHost
@testable import DeckTransport

/// Counts QR renderings, which stand for `qrencode` runs. `@unchecked Sendable`: `count` is locked.
private final class QRCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var rendered: [String] = []
    var texts: [String] { lock.withLock { rendered } }

    func draw(_ text: String) -> String? {
        lock.withLock { rendered.append(text) }
        return "<svg id=\"qr\"></svg>"
    }
}

/// Addresses a test changes at will. `@unchecked Sendable`: `list` is locked.
private final class AddressList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String]
    init(_ list: [String]) { self.list = list }
    var value: [String] {
        get { lock.withLock { list } }
        set { lock.withLock { list = newValue } }
    }
}

private let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
private let pem = Data("-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n".utf8)

private func request(_ path: String) -> HTTPRequest { HTTPRequest(path: path, isTLS: false, isLoopback: false) }

@Test func theQRCodeIsDrawnOnceWhenTheRoutesAreMadeNotPerRequest() throws {
    let counter = QRCounter()
    let routes = SetupRoutes(
        hostName: "desk", addresses: ["desk.local"], port: 52801, caPEM: pem, qr: counter.draw)
    for _ in 0..<50 {
        #expect(routes.respond(to: request("/setup")) != nil)
        #expect(routes.respond(to: request("/")) != nil)
    }
    #expect(counter.texts == ["https://desk.local:52801/"])
}

@Test func thePublisherRendersAgainOnlyWhenTheAddressesChange() throws {
    let counter = QRCounter()
    let addresses = AddressList(["desk.local", "192.168.1.5"])
    let publisher = SetupPublisher(
        addresses: { addresses.value },
        render: { SetupRoutes(hostName: "desk", addresses: $0, port: 52801, caPEM: pem, qr: counter.draw) })
    #expect(publisher.respond(to: request("/setup")) == nil)
    publisher.refresh()
    publisher.refresh()
    for _ in 0..<20 { _ = publisher.respond(to: request("/setup")) }
    #expect(counter.texts.count == 1)
    addresses.value = ["192.168.1.77", "desk.local"]
    publisher.refresh()
    publisher.refresh()
    #expect(counter.texts == ["https://192.168.1.5:52801/", "https://192.168.1.77:52801/"])
    let html = String(decoding: try #require(publisher.respond(to: request("/setup"))).body, as: UTF8.self)
    #expect(html.contains("https://192.168.1.77:52801/"))
    #expect(!html.contains("192.168.1.5:"))
}

@Test func thePageShowsTheFingerprintAndLoadsItsStyleFromAFile() throws {
    let routes = SetupRoutes(
        hostName: "desk", addresses: ["desk.local"], port: 52801, caPEM: pem, caFingerprint: fingerprint,
        qr: { _ in nil })
    let html = String(decoding: try #require(routes.respond(to: request("/setup"))).body, as: UTF8.self)
    #expect(html.contains(fingerprint))
    // The Content-Security-Policy (default-src 'self') refuses inline styles and scripts.
    #expect(!html.contains("<style"))
    #expect(!html.contains("<script"))
    #expect(!html.contains("style=\""))
    #expect(html.contains("<link rel=\"stylesheet\" href=\"/setup.css\">"))
    let css = try #require(routes.respond(to: request("/setup.css")))
    #expect(css.contentType == "text/css; charset=utf-8")
    #expect(String(decoding: css.body, as: UTF8.self).contains("#2A2D33"))
    #expect(!html.contains("new certificate authority"))
}

@Test func aReplacedAuthorityIsAnnouncedOnThePage() throws {
    let routes = SetupRoutes(
        hostName: "desk", addresses: ["desk.local"], port: 52801, caPEM: pem, caFingerprint: fingerprint,
        authorityReplaced: true, qr: { _ in nil })
    let html = String(decoding: try #require(routes.respond(to: request("/setup"))).body, as: UTF8.self)
    #expect(html.contains("This computer has a new certificate authority"))
    #expect(html.contains("must install and trust this one"))
}

@Test func theProfileCarriesTheFingerprintInItsDescriptions() throws {
    let routes = SetupRoutes(
        hostName: "desk", addresses: ["desk.local"], port: 52801, caPEM: pem, caFingerprint: fingerprint,
        qr: { _ in nil })
    let body = try #require(routes.respond(to: request("/touchdeck.mobileconfig"))).body
    let plist = try #require(try PropertyListSerialization.propertyList(from: body, format: nil) as? [String: Any])
    let payload = try #require((plist["PayloadContent"] as? [[String: Any]])?.first)
    #expect((payload["PayloadDescription"] as? String)?.contains("SHA-256 fingerprint: \(fingerprint)") == true)
    #expect((plist["PayloadDescription"] as? String)?.contains("SHA-256 fingerprint: \(fingerprint)") == true)
}

@Test func theStatusTellsWhatToDoAboutAReplacedCAAndLeftOutAddresses() {
    let tls = URL(fileURLWithPath: "/home/me/.config/touchdeck/tls")
    let files = CertificateFiles(
        authority: tls.appendingPathComponent("ca.pem"), serverCertificate: tls.appendingPathComponent("server.pem"),
        serverKey: tls.appendingPathComponent("server-key.pem"), outcome: .replacedAuthority,
        authorityFingerprint: fingerprint, leftOut: ["203.0.113.9"],
        setAside: [tls.appendingPathComponent("ca.pem.unconstrained-20261201T000000Z")],
        serverIdentity: LocalIdentity(dnsNames: ["desk.local"], ipAddresses: ["127.0.0.1"]))
    var status = AuthorityStatus(files)
    #expect(status.fingerprint == fingerprint)
    #expect(status.notices.count == 2)
    #expect(status.notices[0].hasPrefix("devices must trust the new certificate authority"))
    #expect(status.notices[0].contains("/tls/ca.pem.unconstrained-20261201T000000Z"))
    #expect(status.notices[1].contains("203.0.113.9"))
    status.replaced = false
    status.leftOut = []
    #expect(status.notices.isEmpty)
}
