import DeckTransport
import Foundation

/// The plain-HTTP pages a new device sees first (SPEC §1): what to do once per device, the CA and the iOS
/// profile, and a QR code of the HTTPS address. The app itself is only served over HTTPS (loopback excepted).
public struct SetupRoutes: Sendable {
    public var hostName: String
    /// Names and addresses the device may use, best first (`name.local` before raw IPs).
    public var addresses: [String]
    public var port: Int
    /// The local CA certificate, PEM.
    public var caPEM: Data

    public init(hostName: String, addresses: [String], port: Int, caPEM: Data) {
        self.hostName = hostName
        self.addresses = addresses
        self.port = port
        self.caPEM = caPEM
    }

    /// The response for a request, or nil to let the server serve the web app's files.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        switch request.path {
        case "/ca.crt", "/touchdeck-ca.crt":
            return HTTPResponse(contentType: "application/x-x509-ca-cert", body: caPEM,
                                headers: ["Content-Disposition": "attachment; filename=touchdeck-ca.crt"])
        case "/touchdeck.mobileconfig":
            return HTTPResponse(contentType: "application/x-apple-aspen-config",
                                body: MobileConfig.profile(caDER: Self.der(fromPEM: caPEM), hostName: hostName))
        case "/setup":
            return page()
        case "/", "/index.html":
            return request.isTLS || request.isLoopback ? nil : page()
        default:
            return nil
        }
    }

    func page() -> HTTPResponse {
        HTTPResponse(contentType: "text/html; charset=utf-8", body: Data(html().utf8),
                     headers: ["Cache-Control": "no-store"])
    }

    var httpsURLs: [String] { addresses.map { "https://\(Self.urlHost($0)):\(port)/" } }

    func html() -> String {
        let name = MobileConfig.escape(hostName)
        let first = httpsURLs.first ?? "https://localhost:\(port)/"
        let qr = QRCode.svg(first) ?? ""
        let links = httpsURLs.map { "<li><a href=\"\($0)\">\(MobileConfig.escape($0))</a></li>" }.joined()
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Set up TouchDeck on \(name)</title>
            <style>body{font-family:system-ui,sans-serif;background:#2A2D33;color:#eceff4;max-width:640px;margin:auto;
            padding:24px;line-height:1.5}a{color:#93c5fd}.qr{background:#fff;display:inline-block;padding:8px;
            border-radius:12px}.qr svg{width:220px;height:220px}code{background:#1e2024;padding:2px 6px;border-radius:6px}
            li{margin:6px 0}</style></head><body>
            <h1>Set up TouchDeck on \(name)</h1>
            <p>Do this once on each tablet or phone.</p>
            <h2>1. Trust this computer</h2>
            <ul>
            <li><b>iPad / iPhone:</b> <a href="/touchdeck.mobileconfig">install the profile</a>, then in Settings →
            General → About → Certificate Trust Settings turn on “TouchDeck CA (\(name))”.</li>
            <li><b>Android:</b> <a href="/ca.crt">download the certificate</a> and install it under Settings →
            Security → Encryption &amp; credentials → Install a certificate → CA certificate.</li>
            <li><b>A computer:</b> <a href="/ca.crt">download the certificate</a> and import it as a trusted authority
            in the browser's settings.</li>
            </ul>
            <h2>2. Open TouchDeck</h2>
            <div class="qr">\(qr)</div>
            <ul>\(links)</ul>
            <h2>3. Pair</h2>
            <p>Enter the 6-digit PIN shown on this computer: run <code>touchdeck pair</code>, or read the
            notification that appears when the device asks. Five wrong PINs end that PIN.</p>
            </body></html>
            """
    }

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
