import COpenSSL

/// Failures of the crypto layer. Messages never carry secrets, PINs or key material.
public enum CryptoError: Error, Equatable, Sendable {
    /// An OpenSSL call failed; the name of the call is kept for the log.
    case openssl(String)
    /// Input had the wrong size or shape.
    case malformed(String)
    /// An AEAD tag or a MAC did not verify: tampered data, a wrong key or wrong associated data.
    case authenticationFailed
    /// A point is not on P-256, or an operation produced the point at infinity.
    case invalidPoint
}

/// One funnel for OpenSSL's 1-on-success return codes.
@inline(__always)
func check(_ result: Int32, _ call: StaticString) throws {
    guard result == 1 else {
        ERR_clear_error()
        throw CryptoError.openssl("\(call)")
    }
}
