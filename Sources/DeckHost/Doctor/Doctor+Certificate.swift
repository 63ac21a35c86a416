import DeckTransport
import Foundation

extension Doctor {
    /// The local CA: present, name-constrained, its fingerprint, and whether it covers this computer's names
    /// and addresses as they are now (DESIGN.md#local-ca: one outside its constraints is left out of the certificate).
    func certificateChecks(identity: LocalIdentity = .current()) -> [Check] {
        let directory = configDirectory.appendingPathComponent("tls")
        let ca = directory.appendingPathComponent("ca.pem")
        guard FileManager.default.isReadableFile(atPath: ca.path) else {
            return [
                Check(
                    name: "certificate", ok: false, detail: "no local CA yet in \(directory.path)",
                    fix: "start `touchdeck serve` once; it creates the CA, then trust it on each device via the "
                        + "setup page")
            ]
        }
        do {
            let report = try CertificateStore.inspect(in: directory, identity: identity)
            return [authorityCheck(report, path: ca.path), coverageCheck(report, identity: identity)]
        } catch {
            return [
                Check(
                    name: "certificate", ok: false, detail: "\(error)",
                    fix: "move \(directory.path) aside and start `touchdeck serve` (each device must trust the new CA)")
            ]
        }
    }

    private func authorityCheck(_ report: AuthorityReport, path: String) -> Check {
        guard report.isConstrained else {
            return Check(
                name: "certificate", ok: false,
                detail: "\(path) was made by an older version without name constraints: its key could sign for "
                    + "any site",
                fix: "restart `touchdeck serve`: it sets this CA aside and makes a constrained one; then trust the "
                    + "new one on each device")
        }
        return Check(name: "certificate", ok: true, detail: "\(path), SHA-256 \(report.fingerprint)", fix: "")
    }

    /// An address left out is a note (devices use the name, and IPv6 privacy addresses change daily); a name
    /// left out (the computer was renamed) fails, since devices then cannot use the name either.
    private func coverageCheck(_ report: AuthorityReport, identity: LocalIdentity) -> Check {
        guard !report.leftOut.isEmpty else {
            return Check(name: "certificate names", ok: true, detail: "covers every current name and address", fix: "")
        }
        let usable = identity.dnsNames.filter { !report.leftOut.contains($0) }
        let name = usable.first { $0.hasSuffix(".local") } ?? usable.first ?? "localhost"
        return Check(
            name: "certificate names", ok: usable.count == identity.dnsNames.count,
            detail: "\(report.leftOut.joined(separator: ", ")) outside the local CA's name constraints, so left out "
                + "of the server certificate; devices use \(name)",
            fix: "this computer was renamed after its CA was made: move the tls folder aside and restart "
                + "`touchdeck serve` (a new CA, which every device must trust again)")
    }
}
