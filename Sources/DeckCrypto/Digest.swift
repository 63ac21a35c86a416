import COpenSSL
import Foundation

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    /// The 32-byte digest of `data`.
    public static func hash(_ data: Data) -> Data {
        var out = Data(count: 32)
        var length: UInt32 = 0
        let result = out.withUnsafeMutableBytes { digest in
            data.withUnsafeBytes { input in
                EVP_Digest(
                    input.baseAddress, input.count, digest.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    &length, EVP_sha256(), nil)
            }
        }
        // SHA-256 over memory has no environmental failure; a failure here is a broken libcrypto.
        precondition(result == 1 && length == 32, "EVP_Digest failed")
        return out
    }

    /// The digest of everything `read` hands over, piece by piece until it gives an empty one (a file read in
    /// 1 MiB pieces, never whole in memory); nil when libcrypto fails.
    public static func hash(reading read: () throws -> Data) rethrows -> Data? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        while case let piece = try read(), !piece.isEmpty {
            let ok = piece.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            guard ok == 1 else { return nil }
        }
        var digest = Data(count: 32)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBytes {
            EVP_DigestFinal_ex(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), &length)
        }
        return ok == 1 ? digest : nil
    }
}

/// HMAC-SHA256 (RFC 2104).
public enum HMACSHA256 {
    /// The 32-byte tag of `message` under `key`.
    public static func mac(key: Data, message: Data) -> Data {
        // HMAC pads the key with zeros to the block size, so an empty key and one zero byte are the same key;
        // OpenSSL refuses a NULL key, which is what an empty Data would hand it.
        let key = key.isEmpty ? Data([0]) : key
        var out = Data(count: 32)
        var length: UInt32 = 0
        let result = out.withUnsafeMutableBytes { tag in
            key.withUnsafeBytes { keyBytes in
                message.withUnsafeBytes { input in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(key.count),
                        input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                        tag.baseAddress!.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC failed")
        return out
    }

    /// Checks `tag` against the MAC of `message` in constant time.
    public static func verify(_ tag: Data, key: Data, message: Data) -> Bool {
        Bytes.constantTimeEqual(tag, mac(key: key, message: message))
    }
}
