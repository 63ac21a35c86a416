import Foundation
import Glibc

/// What `touchdeck doctor` reads about the local CA, without changing any file.
public struct AuthorityReport: Equatable, Sendable {
    /// SHA-256 of `ca.pem`, colon hex.
    public var fingerprint: String
    /// Whether the CA carries name constraints; one without was made by an older version and is replaced at start.
    public var isConstrained: Bool
    /// This computer's names and addresses the CA may not sign for, so the server certificate leaves them out.
    public var leftOut: [String]
}

extension CertificateStore {
    /// Reads the CA in `directory` and compares it with what this computer is called now.
    public static func inspect(in directory: URL, identity: LocalIdentity = .current()) throws -> AuthorityReport {
        let (authority, _) = try loadAuthority(Paths(directory: directory))
        return AuthorityReport(
            fingerprint: try authority.sha256Fingerprint(), isConstrained: authority.hasNameConstraints,
            leftOut: identity.names(missingFrom: identity.allowed(by: authority)))
    }

    /// Moves a readable CA without name constraints, with its key and server certificate, to
    /// `<name>.unconstrained-<UTC time>` beside them; returns where they went. Renamed, never deleted: the
    /// user may still want the old key, and a mistake here must not cost it.
    static func setAsideUnconstrainedAuthority(_ paths: Paths, now: Date) throws -> [URL] {
        guard let (authority, _) = try? loadAuthority(paths), !authority.hasNameConstraints else { return [] }
        let suffix = ".unconstrained-" + stamp(now)
        var moved: [URL] = []
        for url in [paths.authority, paths.authorityKey, paths.server, paths.serverKey]
        where FileManager.default.fileExists(atPath: url.path) {
            let target = URL(fileURLWithPath: url.path + suffix)
            guard rename(url.path, target.path) == 0 else {
                throw TransportError.certificate("cannot move \(url.path) aside: errno \(errno)")
            }
            moved.append(target)
        }
        return moved
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}

extension LocalIdentity {
    /// Only the names and addresses `authority`'s name constraints permit.
    func allowed(by authority: Certificate) -> LocalIdentity {
        LocalIdentity(
            dnsNames: dnsNames.filter(authority.permits(dnsName:)),
            ipAddresses: ipAddresses.filter(authority.permits(ipAddress:)))
    }

    /// Names and addresses of this identity that `other` lacks, in order.
    func names(missingFrom other: LocalIdentity) -> [String] {
        dnsNames.filter { !other.dnsNames.contains($0) } + ipAddresses.filter { !other.ipAddresses.contains($0) }
    }
}
