import Foundation
import Testing

@testable import DeckTransport

@Suite struct CertificateStoreTests {
    let identity = LocalIdentity(dnsNames: ["desk", "desk.local", "localhost"], ipAddresses: ["127.0.0.1", "::1"])

    @Test func firstStartCreatesCAAndServerCertificate() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try CertificateStore.prepare(in: directory, identity: identity)
        #expect(files.outcome == .created)
        let text = try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", files.serverCertificate.path])
        #expect(text.status == 0)
        #expect(text.output.contains("DNS:localhost"))
        #expect(text.output.contains("DNS:desk.local"))
        #expect(text.output.contains("IP Address:127.0.0.1"))
        #expect(text.output.contains("IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.output.contains("ASN1 OID: prime256v1"))
        #expect(text.output.contains("TLS Web Server Authentication"))
        let verify = try runTool(
            "/usr/bin/openssl", ["verify", "-CAfile", files.authority.path, files.serverCertificate.path])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test func authorityIsACAAndKeysArePrivate() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try CertificateStore.prepare(in: directory, identity: identity)
        let text = try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", files.authority.path])
        #expect(text.output.contains("CA:TRUE"))
        #expect(text.output.contains("Certificate Sign"))
        for name in ["ca-key.pem", "server-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
        }
    }

    @Test func secondStartReusesTheSameBytes() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try CertificateStore.prepare(in: directory, identity: identity)
        let before = try snapshot(directory)
        let second = try CertificateStore.prepare(in: directory, identity: identity)
        #expect(first.outcome == .created)
        #expect(second.outcome == .reused)
        #expect(try snapshot(directory) == before)
    }

    @Test func newAddressRenewsServerCertificateUnderTheSameCA() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CertificateStore.prepare(in: directory, identity: identity)
        let before = try snapshot(directory)
        var moved = identity
        moved.ipAddresses.append("192.168.77.5")
        let files = try CertificateStore.prepare(in: directory, identity: moved)
        let after = try snapshot(directory)
        #expect(files.outcome == .renewedServer)
        #expect(after["ca.pem"] == before["ca.pem"])
        #expect(after["ca-key.pem"] == before["ca-key.pem"])
        #expect(after["server.pem"] != before["server.pem"])
        let text = try runTool("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", files.serverCertificate.path])
        #expect(text.output.contains("IP Address:192.168.77.5"))
        let verify = try runTool(
            "/usr/bin/openssl", ["verify", "-CAfile", files.authority.path, files.serverCertificate.path])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test func expiringServerCertificateIsRenewed() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CertificateStore.prepare(in: directory, identity: identity)
        let later = Date().addingTimeInterval(Double(CertificateBuilder.serverValidityDays - 10) * 86400)
        #expect(try CertificateStore.prepare(in: directory, identity: identity, now: later).outcome == .renewedServer)
    }

    @Test func unreadableAuthorityIsAnErrorNotReplaced() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CertificateStore.prepare(in: directory, identity: identity)
        let caPath = directory.appendingPathComponent("ca.pem")
        try Data("not a certificate".utf8).write(to: caPath)
        #expect(throws: TransportError.self) { try CertificateStore.prepare(in: directory, identity: identity) }
        #expect(try Data(contentsOf: caPath) == Data("not a certificate".utf8))
    }

    @Test func currentIdentityIncludesLoopbackAndLocalhost() {
        let current = LocalIdentity.current()
        #expect(current.dnsNames.contains("localhost"))
        #expect(current.ipAddresses.contains("127.0.0.1"))
        #expect(current.ipAddresses.contains("::1"))
        #expect(LocalIdentity.names(hostName: "desk.example.org") == ["desk.example.org", "desk.local", "localhost"])
    }

    private func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["ca.pem", "ca-key.pem", "server.pem", "server-key.pem"] {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }
}
