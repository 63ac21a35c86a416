import DeckHost
import Foundation

struct PairCommand: Command {
    static let name = "pair"
    static let usage = ["pair [--config-dir D]"]
    static let summary = "show a new 6-digit PIN, and a QR code that leads a new device through the setup page"
    let arguments: Arguments

    init(_ arguments: Arguments) throws { self.arguments = arguments }

    func validate() throws {
        try arguments.allow(options: ["config-dir"])
        guard arguments.positionals.isEmpty else { throw UsageError("pair takes no arguments") }
    }

    /// The QR code is the setup page's (plain HTTP on the same address and port): a device that does not trust
    /// the certificate yet gets it there, and the page's own QR code and link then lead to the HTTPS address.
    func run() async throws -> Int32 {
        guard let response = ask(ControlRequest(command: .pair), arguments), let pin = response.pin else { return 1 }
        let url = response.url ?? ""
        let setup = SetupLink.page(forApp: url) ?? url
        print("PIN: \(pin)   (valid for \((response.expiresIn ?? 300) / 60) minutes, 5 tries)")
        print("A device that already trusts this computer: open \(url) and enter the PIN.")
        print("A new device: scan the code or open \(setup) — it offers the certificate, then leads to \(url).")
        if let fingerprint = response.caFingerprint { print("CA fingerprint (SHA-256): \(fingerprint)") }
        if let code = QRCode.terminal(setup) { print(code, terminator: "") }
        return 0
    }
}
