import Foundation

/// The setup page's markup. Kept free of inline styles and scripts, which the Content-Security-Policy refuses.
struct SetupHTML {
    let hostName: String
    /// The address devices are given; `otherURLs` only for a device that cannot reach it.
    let httpsURL: String
    let otherURLs: [String]
    let qrSVG: String?
    let caFingerprint: String
    let authorityReplaced: Bool

    static let css = """
        body{font-family:system-ui,sans-serif;background:#2A2D33;color:#eceff4;max-width:640px;margin:auto;
        padding:24px;line-height:1.5}a{color:#93c5fd}.qr{background:#fff;display:inline-block;padding:8px;
        border-radius:12px}.qr svg{width:220px;height:220px}code{background:#1e2024;padding:2px 6px;border-radius:6px}
        .fingerprint{word-break:break-all}.notice{border:2px solid #f59e0b;border-radius:12px;padding:12px}
        li{margin:6px 0}
        """

    func render() -> String {
        let name = MobileConfig.escape(hostName)
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Set up TouchDeck on \(name)</title>
            <link rel="stylesheet" href="/setup.css"></head><body>
            <h1>Set up TouchDeck on \(name)</h1>
            \(replacedNotice)<p>Do this once on each tablet or phone.</p>
            <h2>1. Trust this computer</h2>
            <ul>
            <li><b>iPad / iPhone:</b> <a href="/touchdeck.mobileconfig">install the profile</a>, then in Settings →
            General → About → Certificate Trust Settings turn on “TouchDeck CA (\(name))”.</li>
            <li><b>Android:</b> <a href="/ca.crt">download the certificate</a> and install it under Settings →
            Security → Encryption &amp; credentials → Install a certificate → CA certificate.</li>
            <li><b>A computer:</b> <a href="/ca.crt">download the certificate</a> and import it as a trusted authority
            in the browser's settings.</li>
            </ul>
            <p>Before you trust it, check that its SHA-256 fingerprint is
            <code class="fingerprint" id="ca-fingerprint">\(caFingerprint)</code> (also shown by
            <code>touchdeck pair</code> and <code>touchdeck status</code> on this computer). This certificate can
            only vouch for this computer's names and local addresses, never for other sites.</p>
            <h2>2. Open TouchDeck</h2>
            <div class="qr">\(qrSVG ?? "")</div>
            <p><a id="app-link" href="\(httpsURL)">\(MobileConfig.escape(httpsURL))</a></p>
            \(otherAddresses)<h2>3. Pair</h2>
            <p>Enter the 6-digit PIN shown on this computer: run <code>touchdeck pair</code>, or read the
            notification that appears when the device asks. Five wrong PINs end that PIN.</p>
            </body></html>
            """
    }

    /// A device pairs per address: the others are offered only for a device that cannot open the first.
    private var otherAddresses: String {
        guard !otherURLs.isEmpty else { return "" }
        let links = otherURLs.map { "<li><a href=\"\($0)\">\(MobileConfig.escape($0))</a></li>" }.joined()
        return """
            <p>Only if that does not open on this device, use one of these instead, and keep to it: a device
            paired at one address is not paired at another.</p>
            <ul class="other-addresses">\(links)</ul>

            """
    }

    private var replacedNotice: String {
        guard authorityReplaced else { return "" }
        return """
            <p class="notice" id="new-authority"><b>This computer has a new certificate authority.</b> The one an
            older TouchDeck made could vouch for any site, so it was replaced. Every device that trusted the old one
            must install and trust this one (step 1), and may then remove the old one.</p>

            """
    }
}
