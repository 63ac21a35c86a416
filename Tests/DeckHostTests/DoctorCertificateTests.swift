import DeckDesktop
import Foundation
import Testing

@testable import DeckHost
@testable import DeckTransport

/// `touchdeck doctor` on the local CA (DESIGN.md#local-ca): its fingerprint, and what it leaves out.
@Suite struct DoctorCertificateTests {
    let identity = LocalIdentity(
        dnsNames: ["desk", "desk.local", "localhost"], ipAddresses: ["127.0.0.1", "10.0.0.5"])

    private func withCA(_ body: (URL, CertificateFiles) throws -> Void) throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-doctor-\(UUID())")
        defer { try? FileManager.default.removeItem(at: config) }
        let files = try CertificateStore.prepare(in: config.appendingPathComponent("tls"), identity: identity)
        try body(config, files)
    }

    private func checks(_ config: URL, _ identity: LocalIdentity) -> [String: Doctor.Check] {
        let list = Doctor(configDirectory: config, environment: [:]).certificateChecks(identity: identity)
        return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
    }

    @Test func aCoveredComputerPassesAndShowsTheFingerprint() throws {
        try withCA { config, files in
            let found = checks(config, identity)
            #expect(found["certificate"]?.ok == true)
            #expect(found["certificate"]?.detail.hasSuffix("SHA-256 \(files.authorityFingerprint)") == true)
            #expect(found["certificate names"]?.ok == true)
        }
    }

    @Test func aLaterPublicAddressIsNamedAsLeftOut() throws {
        try withCA { config, _ in
            var moved = identity
            moved.ipAddresses.append("198.51.100.4")
            let check = try #require(checks(config, moved)["certificate names"])
            #expect(check.ok, "devices still reach the computer by name")
            #expect(check.detail.hasPrefix("198.51.100.4 outside the local CA's name constraints"))
            #expect(check.detail.hasSuffix("devices use desk.local"))
        }
    }

    @Test func aRenamedComputerFails() throws {
        try withCA { config, _ in
            let renamed = LocalIdentity(
                dnsNames: ["study", "study.local", "localhost"], ipAddresses: ["127.0.0.1", "10.0.0.5"])
            let check = try #require(checks(config, renamed)["certificate names"])
            #expect(!check.ok)
            #expect(check.detail.hasPrefix("study, study.local outside"))
            #expect(check.fix.contains("renamed"))
        }
    }
}
