import DeckTransport
import Foundation

/// The plain-HTTP pages a new device sees first (DESIGN.md#local-ca): what to do once per device, the CA and the iOS
/// profile, and a QR code of the HTTPS address. The app itself is only served over HTTPS (loopback excepted).
///
/// Everything is rendered when the value is made, QR code included (a `qrencode` run), so answering a
/// request on the transport thread only hands out finished bytes. `SetupPublisher` makes a new value, off
/// that thread, when the addresses change.
public struct SetupRoutes: Sendable {
    public let hostName: String
    /// This computer's names and addresses that are up and in the certificate (`HostDaemon.setupAddresses`).
    public let addresses: [String]
    public let port: Int
    /// The local CA certificate, PEM.
    public let caPEM: Data
    /// The CA's SHA-256 fingerprint, colon hex, shown so the user can check what they install.
    public let caFingerprint: String
    /// Whether this start replaced an older CA, which every device must now trust instead.
    public let authorityReplaced: Bool
    private let page: HTTPResponse
    private let profile: HTTPResponse

    /// Renders the page now; `qr` draws the QR code of the HTTPS address devices are given (`SetupLink.preferred`,
    /// the daemon's own), which the page also links to first (nil: no image).
    public init(
        hostName: String, addresses: [String], port: Int, caPEM: Data, caFingerprint: String = "",
        authorityReplaced: Bool = false, qr: (String) -> String? = QRCode.svg
    ) {
        self.hostName = hostName
        self.addresses = addresses
        self.port = port
        self.caPEM = caPEM
        self.caFingerprint = caFingerprint
        self.authorityReplaced = authorityReplaced
        let preferred = SetupLink.preferred(addresses) ?? "localhost"
        let url = { (address: String) in "https://\(Self.urlHost(address)):\(port)/" }
        let html = SetupHTML(
            hostName: hostName, httpsURL: url(preferred), otherURLs: addresses.filter { $0 != preferred }.map(url),
            qrSVG: qr(url(preferred)), caFingerprint: caFingerprint, authorityReplaced: authorityReplaced)
        page = HTTPResponse(
            contentType: "text/html; charset=utf-8", body: Data(html.render().utf8),
            headers: ["Cache-Control": "no-store"])
        profile = HTTPResponse(
            contentType: "application/x-apple-aspen-config",
            body: MobileConfig.profile(
                caDER: Self.der(fromPEM: caPEM), hostName: hostName, fingerprint: caFingerprint))
    }

    /// The response for a request, or nil to let the server serve the web app's files.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        switch request.path {
        case "/ca.crt", "/touchdeck-ca.crt":
            return HTTPResponse(
                contentType: "application/x-x509-ca-cert", body: caPEM,
                headers: ["Content-Disposition": "attachment; filename=touchdeck-ca.crt"])
        case "/touchdeck.mobileconfig":
            return profile
        case "/setup":
            return page
        case "/setup.css":
            // A file, not a <style> element: the Content-Security-Policy refuses inline styles.
            return HTTPResponse(contentType: "text/css; charset=utf-8", body: Data(SetupHTML.css.utf8))
        case "/", "/index.html":
            return request.isTLS || request.isLoopback ? nil : page
        default:
            return nil
        }
    }

    /// The answer before the routes are rendered (the port opens a moment before): the paths these routes
    /// serve get a 503 that asks to try again in a second, the app's own files are left to the file server,
    /// so a device that comes in early never sees a 404 for the setup page.
    public static func starting(for request: HTTPRequest) -> HTTPResponse? {
        switch request.path {
        case "/ca.crt", "/touchdeck-ca.crt", "/touchdeck.mobileconfig", "/setup", "/setup.css":
            return startingPage
        case "/", "/index.html":
            return request.isTLS || request.isLoopback ? nil : startingPage
        default:
            return nil
        }
    }

    private static let startingPage = HTTPResponse(
        status: 503, contentType: "text/plain; charset=utf-8",
        body: Data("TouchDeck is starting; this page reloads in a second.\n".utf8),
        headers: ["Retry-After": "1", "Refresh": "1", "Cache-Control": "no-store"])

    static func urlHost(_ address: String) -> String {
        address.contains(":") ? "[\(address)]" : address
    }

    /// The DER bytes of the first certificate in a PEM file.
    static func der(fromPEM pem: Data) -> Data {
        let text = String(decoding: pem, as: UTF8.self)
        let body = text.components(separatedBy: "\n")
            .drop(while: { !$0.hasPrefix("-----BEGIN CERTIFICATE") }).dropFirst()
            .prefix(while: { !$0.hasPrefix("-----END") })
            .joined()
        return Data(base64Encoded: body) ?? Data()
    }
}
