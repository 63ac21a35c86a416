import Foundation
import Testing

@testable import DeckTransport

/// DESIGN.md#local-ca: the local CA is name-constrained, so its key cannot sign for a public site. Checked with the
/// `openssl` tool, which knows nothing of our code: leaves are made and verified the way an attacker holding
/// `ca-key.pem` would make them.
@Suite struct CertificateConstraintTests {
    let identity = LocalIdentity(
        dnsNames: ["desk", "desk.local", "localhost"], ipAddresses: ["127.0.0.1", "::1", "192.168.1.20", "203.0.113.7"])

    /// A temporary directory with the store's files for `identity`.
    private func prepared(_ identity: LocalIdentity? = nil) throws -> (URL, CertificateFiles) {
        let directory = try makeTemporaryDirectory()
        return (directory, try CertificateStore.prepare(in: directory, identity: identity ?? self.identity))
    }

    /// A leaf for `subjectAltName` (e.g. `DNS:accounts.google.com`), signed with the CA's key by the openssl tool.
    private func forgeLeaf(_ subjectAltName: String, in directory: URL) throws -> String {
        let name = subjectAltName.replacingOccurrences(of: ":", with: "_")
        let csr = directory.appendingPathComponent("\(name).csr").path
        let leaf = directory.appendingPathComponent("\(name).pem").path
        let request = try runTool(
            "/usr/bin/openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", directory.appendingPathComponent("\(name)-key.pem").path, "-subj", "/CN=forged",
                "-addext", "subjectAltName=\(subjectAltName)", "-out", csr,
            ])
        try #require(request.status == 0, "\(request.output)")
        let signed = try runTool(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", csr, "-CA", directory.appendingPathComponent("ca.pem").path,
                "-CAkey", directory.appendingPathComponent("ca-key.pem").path, "-set_serial", "7", "-days", "30",
                "-copy_extensions", "copy", "-out", leaf,
            ])
        try #require(signed.status == 0, "\(signed.output)")
        return leaf
    }

    private func verify(_ leaf: String, in directory: URL) throws -> ToolResult {
        try runTool(
            "/usr/bin/openssl",
            ["verify", "-purpose", "sslserver", "-CAfile", directory.appendingPathComponent("ca.pem").path, leaf])
    }

    @Test func authorityCarriesCriticalNameConstraints() throws {
        let (directory, files) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", files.authority.path]).output
        #expect(text.contains("X509v3 Name Constraints: critical"))
        for entry in [
            "DNS:desk", "DNS:desk.local", "DNS:localhost", "IP:127.0.0.0/255.0.0.0", "IP:10.0.0.0/255.0.0.0",
            "IP:172.16.0.0/255.240.0.0", "IP:192.168.0.0/255.255.0.0", "IP:169.254.0.0/255.255.0.0",
            "IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF", "IP:FC00:0:0:0:0:0:0:0/FE00:0:0:0:0:0:0:0",
            "IP:FE80:0:0:0:0:0:0:0/FFC0:0:0:0:0:0:0:0", "IP:203.0.113.7/255.255.255.255",
        ] {
            #expect(text.contains(entry), "\(entry) missing from\n\(text)")
        }
        // An address inside a private range is not listed twice.
        #expect(!text.contains("IP:192.168.1.20/"))
    }

    @Test func leavesForPublicSitesSignedWithTheCAKeyFailVerification() throws {
        let (directory, files) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["DNS:accounts.google.com", "IP:8.8.8.8", "DNS:desk.example.com", "IP:2001:4860:4860::8888"] {
            let result = try verify(try forgeLeaf(name, in: directory), in: directory)
            #expect(result.status != 0, "\(name) verified:\n\(result.output)")
            #expect(result.output.contains("permitted subtree violation"), "\(name): \(result.output)")
        }
        let own = try verify(files.serverCertificate.path, in: directory)
        #expect(own.status == 0, "\(own.output)")
        // The same tool chain signing an allowed name succeeds, so the refusals above come from the constraints.
        for name in ["DNS:desk.local", "IP:10.9.8.7", "IP:203.0.113.7"] {
            let allowed = try verify(try forgeLeaf(name, in: directory), in: directory)
            #expect(allowed.status == 0, "\(name): \(allowed.output)")
        }
    }

    @Test func anAddressAddedLaterOutsideTheConstraintsIsLeftOut() throws {
        let (directory, _) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        var moved = identity
        moved.ipAddresses += ["198.51.100.4", "10.20.30.40"]
        moved.dnsNames.append("renamed.local")
        let files = try CertificateStore.prepare(in: directory, identity: moved)
        #expect(files.outcome == .renewedServer)
        #expect(files.leftOut == ["renamed.local", "198.51.100.4"])
        let text = try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", files.serverCertificate.path])
        #expect(text.output.contains("IP Address:10.20.30.40"))
        #expect(text.output.contains("IP Address:203.0.113.7"))
        #expect(!text.output.contains("198.51.100.4"))
        #expect(!text.output.contains("renamed.local"))
        #expect(try verify(files.serverCertificate.path, in: directory).status == 0)
        // Nothing changed since: the next start keeps the files and still reports the address.
        let again = try CertificateStore.prepare(in: directory, identity: moved)
        #expect(again.outcome == .reused)
        #expect(again.leftOut == ["renamed.local", "198.51.100.4"])
        let report = try CertificateStore.inspect(in: directory, identity: moved)
        #expect(report.leftOut == ["renamed.local", "198.51.100.4"])
        #expect(report.isConstrained)
    }

    @Test func fingerprintIsWhatOpenSSLPrints() throws {
        let (directory, files) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = try runTool(
            "/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", files.authority.path])
        #expect(
            printed.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "sha256 Fingerprint=\(files.authorityFingerprint)")
        #expect(files.authorityFingerprint.count == 32 * 3 - 1)
        #expect(
            try CertificateStore.inspect(in: directory, identity: identity).fingerprint == files.authorityFingerprint)
    }

    @Test func anUnconstrainedCAFromAnOlderVersionIsSetAsideAndReplaced() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = try runTool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "3650",
                "-subj", "/CN=TouchDeck local CA (desk)", "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                "-keyout", directory.appendingPathComponent("ca-key.pem").path,
                "-out", directory.appendingPathComponent("ca.pem").path,
            ])
        try #require(old.status == 0, "\(old.output)")
        let oldCA = try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
        let oldKey = try Data(contentsOf: directory.appendingPathComponent("ca-key.pem"))
        #expect(try CertificateStore.inspect(in: directory, identity: identity).isConstrained == false)

        let files = try CertificateStore.prepare(in: directory, identity: identity)
        #expect(files.outcome == .replacedAuthority)
        let kept = files.setAside.map(\.lastPathComponent)
        #expect(kept.count == 2)
        #expect(kept.allSatisfy { $0.contains(".unconstrained-") })
        let keptCA = try #require(files.setAside.first { $0.lastPathComponent.hasPrefix("ca.pem.") })
        let keptKey = try #require(files.setAside.first { $0.lastPathComponent.hasPrefix("ca-key.pem.") })
        #expect(try Data(contentsOf: keptCA) == oldCA)
        #expect(try Data(contentsOf: keptKey) == oldKey)
        #expect(try Data(contentsOf: files.authority) != oldCA)
        #expect(try CertificateStore.inspect(in: directory, identity: identity).isConstrained)
        #expect(try verify(files.serverCertificate.path, in: directory).status == 0)
        // The replacement is a one-time event: the next start keeps the new CA.
        #expect(try CertificateStore.prepare(in: directory, identity: identity).outcome == .reused)
    }

    @Test func rangesContainTheirAddressesAndPrintAsOpenSSLConfigReadsThem() throws {
        let ten = try #require(IPRange(cidr: "10.0.0.0/8"))
        #expect(ten.contains(try #require(IPRange(host: "10.255.1.2"))))
        #expect(!ten.contains(try #require(IPRange(host: "11.0.0.1"))))
        #expect(!ten.contains(try #require(IPRange(host: "::1"))))
        let unique = try #require(IPRange(cidr: "fc00::/7"))
        #expect(unique.contains(try #require(IPRange(host: "fd12:3456::1"))))
        #expect(!unique.contains(try #require(IPRange(host: "fe80::1"))))
        #expect(IPRange(cidr: "172.16.0.0/12")?.addressAndMask == "172.16.0.0/255.240.0.0")
        #expect(IPRange(cidr: "fe80::/10")?.addressAndMask == "fe80::/ffc0::")
        #expect(IPRange(host: "203.0.113.7")?.addressAndMask == "203.0.113.7/255.255.255.255")
        #expect(IPRange(cidr: "10.0.0.0/33") == nil)
        #expect(IPRange(host: "desk.local") == nil)
    }
}
