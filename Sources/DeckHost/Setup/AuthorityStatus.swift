import DeckTransport
import Foundation

/// What the CLI shows about the local CA (DESIGN.md#local-ca): its fingerprint, and what the user must do about it.
public struct AuthorityStatus: Equatable, Sendable {
    /// SHA-256 of `ca.pem`, colon hex.
    public var fingerprint: String
    /// Whether this start replaced a CA made by an older version (devices must trust the new one).
    public var replaced: Bool
    /// Where the replaced CA's files were moved.
    public var setAside: [String]
    /// This computer's names and addresses outside the CA's name constraints, left out of the certificate.
    public var leftOut: [String]

    /// The status of what `CertificateStore.prepare` returned.
    public init(_ files: CertificateFiles) {
        fingerprint = files.authorityFingerprint
        replaced = files.outcome == .replacedAuthority
        setAside = files.setAside.map(\.path)
        leftOut = files.leftOut
    }

    /// What `touchdeck status` and the log say beyond the fingerprint; empty when nothing needs doing.
    public var notices: [String] {
        var lines: [String] = []
        if replaced {
            lines.append(
                "devices must trust the new certificate authority: the old one (made by an older version, it could "
                    + "sign for any site) was replaced and kept as \(setAside.joined(separator: ", ")); open the "
                    + "setup page on each device")
        }
        if !leftOut.isEmpty {
            lines.append(
                "left out of the server certificate (outside the certificate authority's name constraints): "
                    + "\(leftOut.joined(separator: ", ")); devices use this computer's name instead")
        }
        return lines
    }
}

extension DeckServer {
    /// Records the local CA's status for `touchdeck pair` and `touchdeck status`.
    public func useAuthority(_ status: AuthorityStatus) {
        authority = status
    }
}
