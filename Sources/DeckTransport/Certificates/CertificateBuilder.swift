import COpenSSL
import Foundation

/// Builds the local CA and the server certificate it signs.
enum CertificateBuilder {
    /// Long enough that devices trust the CA once and forget about it.
    static let caValidityDays = 3650
    /// Apple platforms reject TLS server certificates valid for more than 825 days, even from a user CA.
    static let serverValidityDays = 800

    /// A self-signed CA certificate (basicConstraints CA:TRUE, keyCertSign) for `key`, allowed to sign only
    /// for what `constraints` permits.
    static func makeAuthority(key: PrivateKey, commonName: String, constraints: NameConstraints) throws -> Certificate {
        let certificate = try makeBase(subject: commonName, publicKey: key, days: caValidityDays)
        let name = X509_get_subject_name(certificate.pointer)
        try openSSLCheck(X509_set_issuer_name(certificate.pointer, name) == 1, "X509_set_issuer_name")
        try addExtensions(
            to: certificate, issuer: certificate,
            [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_name_constraints, constraints.extensionValue),
                (NID_subject_key_identifier, "hash"),
            ])
        try sign(certificate, with: key)
        return certificate
    }

    /// A server certificate for `key` whose subjectAltNames are `dnsNames` and `ipAddresses`, signed by the CA.
    static func makeServer(
        key: PrivateKey, dnsNames: [String], ipAddresses: [String], authority: Certificate, authorityKey: PrivateKey
    ) throws -> Certificate {
        let certificate = try makeBase(
            subject: dnsNames.first ?? "localhost", publicKey: key, days: serverValidityDays)
        let issuer = X509_get_subject_name(authority.pointer)
        try openSSLCheck(X509_set_issuer_name(certificate.pointer, issuer) == 1, "X509_set_issuer_name")
        let names = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        try addExtensions(
            to: certificate, issuer: authority,
            [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_alt_name, names.joined(separator: ",")),
                (NID_authority_key_identifier, "keyid:always"),
            ])
        try sign(certificate, with: authorityKey)
        return certificate
    }

    private static func makeBase(subject: String, publicKey: PrivateKey, days: Int) throws -> Certificate {
        guard let raw = X509_new() else { throw TransportError.certificate("X509_new failed") }
        let certificate = Certificate(taking: raw)
        try openSSLCheck(X509_set_version(raw, 2) == 1, "X509_set_version")
        try setRandomSerial(certificate)
        // Backdated an hour so a device whose clock runs a little behind still accepts it.
        try openSSLCheck(X509_gmtime_adj(X509_getm_notBefore(raw), -3600) != nil, "notBefore")
        try openSSLCheck(X509_time_adj_ex(X509_getm_notAfter(raw), Int32(days), 0, nil) != nil, "notAfter")
        try openSSLCheck(X509_set_pubkey(raw, publicKey.pointer) == 1, "X509_set_pubkey")
        let name = X509_get_subject_name(raw)
        let added = X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, subject, -1, -1, 0)
        try openSSLCheck(added == 1, "X509_NAME_add_entry_by_txt")
        return certificate
    }

    private static func setRandomSerial(_ certificate: Certificate) throws {
        var bytes = [UInt8](repeating: 0, count: 16)
        try openSSLCheck(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes")
        bytes[0] &= 0x7f  // a positive serial, as RFC 5280 asks
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else {
            throw TransportError.certificate("BN_bin2bn failed")
        }
        defer { BN_free(number) }
        let serial = X509_get_serialNumber(certificate.pointer)
        try openSSLCheck(BN_to_ASN1_INTEGER(number, serial) != nil, "BN_to_ASN1_INTEGER")
    }

    private static func addExtensions(
        to certificate: Certificate, issuer: Certificate, _ extensions: [(Int32, String)]
    ) throws {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer.pointer, certificate.pointer, nil, nil, 0)
        for (nid, value) in extensions {
            let ext = X509V3_EXT_conf_nid(nil, &context, nid, value)
            try openSSLCheck(ext != nil, "extension \(nid)")
            defer { X509_EXTENSION_free(ext) }
            try openSSLCheck(X509_add_ext(certificate.pointer, ext, -1) == 1, "X509_add_ext")
        }
    }

    private static func sign(_ certificate: Certificate, with key: PrivateKey) throws {
        try openSSLCheck(X509_sign(certificate.pointer, key.pointer, EVP_sha256()) > 0, "X509_sign")
    }
}
