import COpenSSL
import Foundation

/// Poly1305 on its own (RFC 8439 §2.5), through OpenSSL's `EVP_MAC` "POLY1305".
///
/// The host never uses a bare Poly1305; this exists so the tests can hold libcrypto's final reduction to
/// RFC 8439 §A.3's edge vectors, which the AEAD vectors do not reach.
enum Poly1305 {
    /// The 16-byte tag of `message` under a one-time 32-byte key (r ‖ s).
    static func tag(key: Data, message: Data) throws -> Data {
        guard key.count == 32 else { throw CryptoError.malformed("Poly1305 key must be 32 bytes") }
        var out = Data(count: 16)
        var written = 0
        let result = out.withUnsafeMutableBytes { tag in
            key.withUnsafeBytes { keyBytes in
                message.withUnsafeBytes { input in
                    EVP_Q_mac(
                        nil, "POLY1305", nil, nil, nil, keyBytes.baseAddress, key.count,
                        input.bindMemory(to: UInt8.self).baseAddress, input.count,
                        tag.bindMemory(to: UInt8.self).baseAddress, 16, &written)
                }
            }
        }
        guard result != nil, written == 16 else {
            ERR_clear_error()
            throw CryptoError.openssl("EVP_Q_mac(POLY1305)")
        }
        return out
    }
}
