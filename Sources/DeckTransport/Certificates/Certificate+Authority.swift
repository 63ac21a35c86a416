import COpenSSL
import Foundation

extension Certificate {
    /// SHA-256 of the DER bytes as colon-separated upper-case hex, the form `openssl x509 -fingerprint -sha256`
    /// and the iOS and Android certificate screens show.
    func sha256Fingerprint() throws -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        try openSSLCheck(X509_digest(pointer, EVP_sha256(), &digest, &length) == 1, "X509_digest")
        return digest.prefix(Int(length)).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// Whether the certificate carries a Name Constraints extension (CAs older than the rule in
    /// DESIGN.md#local-ca do not).
    var hasNameConstraints: Bool {
        X509_get_ext_by_NID(pointer, NID_name_constraints, -1) >= 0
    }

    /// Whether this CA's name constraints allow a certificate naming `dnsName`; true when it has none.
    func permits(dnsName: String) -> Bool { permits(subjectAltName: "DNS:\(dnsName)") }

    /// Whether this CA's name constraints allow a certificate naming the numeric `ipAddress`; true when it has none.
    func permits(ipAddress: String) -> Bool { permits(subjectAltName: "IP:\(ipAddress)") }

    /// Asks OpenSSL's own checker with a throwaway certificate that names only `subjectAltName`, so the answer
    /// is exactly what verification will say of the real server certificate.
    private func permits(subjectAltName: String) -> Bool {
        guard let constraints = X509_get_ext_d2i(pointer, NID_name_constraints, nil, nil) else { return true }
        defer { NAME_CONSTRAINTS_free(constraints.assumingMemoryBound(to: NAME_CONSTRAINTS.self)) }
        guard let raw = X509_new() else { return false }
        let probe = Certificate(taking: raw)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, nil, probe.pointer, nil, nil, 0)
        guard let ext = X509V3_EXT_conf_nid(nil, &context, NID_subject_alt_name, subjectAltName) else {
            ERR_clear_error()
            return false
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(probe.pointer, ext, -1) == 1 else { return false }
        // The checker reads the names OpenSSL caches from the extensions; this call fills that cache.
        _ = X509_check_purpose(probe.pointer, -1, 0)
        let verdict = NAME_CONSTRAINTS_check(probe.pointer, constraints.assumingMemoryBound(to: NAME_CONSTRAINTS.self))
        ERR_clear_error()
        return verdict == X509_V_OK
    }
}
