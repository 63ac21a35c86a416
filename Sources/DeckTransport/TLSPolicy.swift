import CLibWebSockets

/// The TLS the listener accepts (DESIGN.md#transport): TLS 1.2 and newer with AEAD suites only, set by the daemon
/// itself rather than left to the system's OpenSSL policy, which may allow TLS 1.0 and CBC suites.
enum TLSPolicy {
    /// TLS 1.2 suites: ECDHE key exchange with AES-GCM or ChaCha20-Poly1305. The server key is P-256, so the
    /// ECDSA ones are used; the RSA ones only matter for someone who swaps in an RSA certificate.
    static let tls12Ciphers: StaticString = """
        ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:\
        ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305
        """
    /// TLS 1.3 suites are all AEAD; listed anyway so a policy adding the short-tag CCM_8 suite does not apply.
    static let tls13Suites: StaticString = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
    /// `SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1` from openssl/ssl.h: the macros are built with
    /// `SSL_OP_BIT(n)`, a function-like macro Swift does not import.
    static let refusedVersions = (1 << 25) | (1 << 26) | (1 << 28)

    /// Sets the versions and suites on a vhost's creation info; lws hands them to the vhost's `SSL_CTX`.
    static func apply(to info: inout lws_context_creation_info) {
        // StaticString storage lives as long as the program, so lws may keep these pointers.
        info.ssl_cipher_list = cString(tls12Ciphers)
        info.tls1_3_plus_cipher_list = cString(tls13Suites)
        info.ssl_options_set = refusedVersions
    }

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
