import DeckDesktop
import DeckTransport
import Foundation
import Testing

@testable import DeckHost

private let pem = Data(
    """
    -----BEGIN CERTIFICATE-----
    AAECAwQFBgcICQ==
    -----END CERTIFICATE-----

    """.utf8)

private let routes = SetupRoutes(
    hostName: "desk & co", addresses: ["desk.local", "192.168.1.5", "fe80::1"],
    port: 52801, caPEM: pem)

private func get(_ path: String, tls: Bool = false, loopback: Bool = false) -> HTTPResponse? {
    routes.respond(to: HTTPRequest(path: path, isTLS: tls, isLoopback: loopback))
}

@Test func plainHTTPShowsTheSetupPageWithEveryAddressAndAQRCode() throws {
    let page = try #require(get("/"))
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(page.contentType.hasPrefix("text/html"))
    #expect(html.contains("https://desk.local:52801/"))
    #expect(html.contains("https://[fe80::1]:52801/"))
    #expect(html.contains("desk &amp; co"))
    #expect(html.contains("<svg"), "qrencode is installed by scripts/bootstrap; the page carries the QR code")
    #expect(html.contains("/touchdeck.mobileconfig"))
}

@Test func theAppItselfIsLeftToTheFileServerOverTLSAndLoopback() {
    #expect(get("/", tls: true) == nil)
    #expect(get("/", loopback: true) == nil)
    #expect(get("/app/main.js") == nil)
    #expect(get("/setup", tls: true) != nil)
}

private func early(_ path: String, tls: Bool = false, loopback: Bool = false) -> HTTPResponse? {
    SetupRoutes.starting(for: HTTPRequest(path: path, isTLS: tls, isLoopback: loopback))
}

@Test func beforeTheRoutesAreRenderedTheSetupPathsSayStartingAndTheAppIsLeftAlone() throws {
    for path in ["/", "/setup", "/setup.css", "/ca.crt", "/touchdeck-ca.crt", "/touchdeck.mobileconfig"] {
        let response = try #require(early(path))
        #expect(response.status == 503, "\(path)")
        #expect(response.headers["Retry-After"] == "1")
    }
    #expect(early("/", tls: true) == nil)
    #expect(early("/", loopback: true) == nil)
    #expect(early("/app/main.js") == nil)
    #expect(early("/nope") == nil)
}

@Test func theCACertificateDownloadsAsIs() throws {
    let response = try #require(get("/ca.crt"))
    #expect(response.body == pem)
    #expect(response.contentType == "application/x-x509-ca-cert")
}

@Test func theProfileIsAPropertyListCarryingTheCAAsRootPayload() throws {
    let response = try #require(get("/touchdeck.mobileconfig"))
    let plist = try PropertyListSerialization.propertyList(from: response.body, format: nil) as? [String: Any]
    let payloads = try #require(plist?["PayloadContent"] as? [[String: Any]])
    #expect(payloads.first?["PayloadType"] as? String == "com.apple.security.root")
    #expect(payloads.first?["PayloadContent"] as? Data == Data([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
    #expect(plist?["PayloadType"] as? String == "Configuration")
}

@Test func profileUUIDsAreStableAndShapedLikeVersion4() {
    let a = MobileConfig.stableUUID(Data([1, 2, 3]))
    #expect(a == MobileConfig.stableUUID(Data([1, 2, 3])))
    #expect(a != MobileConfig.stableUUID(Data([1, 2, 4])))
    #expect(UUID(uuidString: a) != nil)
    #expect(a.split(separator: "-")[2].first == "4")
}
