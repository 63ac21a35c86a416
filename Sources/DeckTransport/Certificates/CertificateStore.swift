import Foundation
import Glibc

/// Where the TLS material lives, and what `CertificateStore.prepare` did to it.
public struct CertificateFiles: Equatable, Sendable {
    /// What happened to the files on this start.
    public enum Outcome: Equatable, Sendable {
        /// No CA existed: a new CA and server certificate were made (devices must trust the CA once).
        case created
        /// The existing files cover every current name and address and were kept.
        case reused
        /// The CA was kept; the server certificate was made again (names, addresses or expiry changed).
        case renewedServer
        /// A CA made by an older version (without name constraints) was set aside and a new one made:
        /// every device must trust the new one.
        case replacedAuthority
    }

    /// `ca.pem`, the certificate devices download and trust.
    public var authority: URL
    /// `server.pem`, given to the TLS listener.
    public var serverCertificate: URL
    /// `server-key.pem` (mode 0600).
    public var serverKey: URL
    /// What this start did.
    public var outcome: Outcome
    /// The CA's SHA-256 fingerprint, colon hex (`AB:CD:…`), for the user to compare with what a device shows.
    public var authorityFingerprint: String
    /// This computer's names and addresses that the CA's name constraints do not allow, so the server
    /// certificate leaves them out (devices use the name instead).
    public var leftOut: [String]
    /// Where the files of a replaced older CA went (`.replacedAuthority` only); kept, never deleted.
    public var setAside: [URL]
    /// The names and addresses the server certificate carries: this computer's, less `leftOut`.
    public var serverIdentity: LocalIdentity
}

/// Creates the local CA and server certificate on first start and keeps them fresh afterwards.
public enum CertificateStore {
    /// A server certificate this close to expiry is made again.
    static let renewalMargin: TimeInterval = 30 * 86400

    /// Makes sure `directory` holds `ca.pem`, `ca-key.pem`, `server.pem` and `server-key.pem`, that the
    /// CA signed the server certificate, and that its SANs cover what of `identity` the CA may sign for.
    /// An unreadable CA is an error, never replaced silently: every device that trusts it would stop
    /// connecting. A readable CA without name constraints (made by an older version) is set aside and
    /// replaced, since its key could sign for any site.
    public static func prepare(
        in directory: URL, identity: LocalIdentity = .current(), now: Date = Date()
    ) throws -> CertificateFiles {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let paths = Paths(directory: directory)
        let setAside = try setAsideUnconstrainedAuthority(paths, now: now)
        let (authority, authorityKey, createdAuthority) = try loadOrCreateAuthority(paths, identity: identity)
        let covered = identity.allowed(by: authority)
        var outcome: CertificateFiles.Outcome =
            setAside.isEmpty ? (createdAuthority ? .created : .reused) : .replacedAuthority
        let current = try? loadServer(paths)
        let usable =
            current.map {
                isUsable($0, authority: authorityKey, identity: covered, now: now)
            } ?? false
        if createdAuthority || !usable {
            try createServer(paths, identity: covered, authority: authority, authorityKey: authorityKey)
            if !createdAuthority { outcome = .renewedServer }
        }
        return CertificateFiles(
            authority: paths.authority, serverCertificate: paths.server, serverKey: paths.serverKey, outcome: outcome,
            authorityFingerprint: try authority.sha256Fingerprint(), leftOut: identity.names(missingFrom: covered),
            setAside: setAside, serverIdentity: covered)
    }

    struct Paths {
        let authority, authorityKey, server, serverKey: URL

        init(directory: URL) {
            authority = directory.appendingPathComponent("ca.pem")
            authorityKey = directory.appendingPathComponent("ca-key.pem")
            server = directory.appendingPathComponent("server.pem")
            serverKey = directory.appendingPathComponent("server-key.pem")
        }
    }

    private static func loadOrCreateAuthority(
        _ paths: Paths, identity: LocalIdentity
    ) throws -> (Certificate, PrivateKey, Bool) {
        let manager = FileManager.default
        let haveCertificate = manager.fileExists(atPath: paths.authority.path)
        let haveKey = manager.fileExists(atPath: paths.authorityKey.path)
        if haveCertificate || haveKey {
            let (certificate, key) = try loadAuthority(paths)
            return (certificate, key, false)
        }
        let key = try PrivateKey.generateP256()
        let name = "TouchDeck local CA (\(identity.dnsNames.first ?? "localhost"))"
        let certificate = try CertificateBuilder.makeAuthority(
            key: key, commonName: name, constraints: NameConstraints(identity: identity))
        try writeFile(paths.authorityKey, try key.pem(), mode: 0o600)
        try writeFile(paths.authority, try certificate.pem(), mode: 0o644)
        return (certificate, key, true)
    }

    /// The CA and its key; a pair that does not match is an error.
    static func loadAuthority(_ paths: Paths) throws -> (Certificate, PrivateKey) {
        let certificate = try Certificate(pem: try readFile(paths.authority))
        let key = try PrivateKey(pem: try readFile(paths.authorityKey))
        guard certificate.matches(key) else {
            throw TransportError.certificate("\(paths.authority.path) does not match \(paths.authorityKey.path)")
        }
        return (certificate, key)
    }

    private static func loadServer(_ paths: Paths) throws -> (Certificate, PrivateKey) {
        (try Certificate(pem: try readFile(paths.server)), try PrivateKey(pem: try readFile(paths.serverKey)))
    }

    private static func isUsable(
        _ server: (Certificate, PrivateKey), authority: PrivateKey, identity: LocalIdentity, now: Date
    ) -> Bool {
        let (certificate, key) = server
        return certificate.matches(key) && certificate.isSigned(by: authority)
            && certificate.isValid(at: now.addingTimeInterval(renewalMargin))
            && identity.dnsNames.allSatisfy(certificate.covers(dnsName:))
            && identity.ipAddresses.allSatisfy(certificate.covers(ipAddress:))
    }

    private static func createServer(
        _ paths: Paths, identity: LocalIdentity, authority: Certificate, authorityKey: PrivateKey
    ) throws {
        let key = try PrivateKey.generateP256()
        let certificate = try CertificateBuilder.makeServer(
            key: key, dnsNames: identity.dnsNames, ipAddresses: identity.ipAddresses,
            authority: authority, authorityKey: authorityKey)
        try writeFile(paths.serverKey, try key.pem(), mode: 0o600)
        try writeFile(paths.server, try certificate.pem(), mode: 0o644)
    }

    static func readFile(_ url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw TransportError.certificate("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// Writes through a temporary file created with `mode`, then fsync and rename, so a key is never
    /// readable by others for a moment and a crash never leaves half a file.
    static func writeFile(_ url: URL, _ data: Data, mode: mode_t) throws {
        let temporary = url.path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TransportError.certificate("cannot create \(temporary): errno \(errno)") }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw TransportError.certificate("cannot write \(url.path): errno \(errno)")
        }
    }
}
