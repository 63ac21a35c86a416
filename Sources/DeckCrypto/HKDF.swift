import COpenSSL
import Foundation

/// HKDF-SHA256 (RFC 5869) through OpenSSL's EVP_KDF "HKDF".
public enum HKDF {
    /// `length` bytes of output keying material. An empty salt means HashLen zeros, as RFC 5869 §2.2 says.
    public static func derive(ikm: Data, salt: Data = Data(), info: Data = Data(), length: Int) throws -> Data {
        guard length > 0, length <= 255 * 32 else { throw CryptoError.malformed("HKDF length") }
        let context = try KDFContext(algorithm: "HKDF")
        return try context.derive(
            length: length, strings: [("digest", "SHA256")],
            octets: [
                ("key", ikm), ("salt", salt), ("info", info),
            ])
    }
}

/// Owns one `EVP_KDF_CTX`; freed in deinit. Used by one call at a time, never shared.
final class KDFContext {
    private let handle: OpaquePointer

    init(algorithm: String) throws {
        guard let kdf = EVP_KDF_fetch(nil, algorithm, nil) else { throw CryptoError.openssl("EVP_KDF_fetch") }
        // The context holds its own reference to the algorithm, so ours is dropped right away.
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw CryptoError.openssl("EVP_KDF_CTX_new") }
        handle = context
    }

    deinit { EVP_KDF_CTX_free(handle) }

    /// Runs the KDF with the given parameters. Empty octet strings are left out: for HKDF an absent salt
    /// equals an empty one, and OpenSSL rejects a NULL buffer. OSSL_PARAM keeps raw pointers, so every
    /// string and buffer is copied to the heap and freed only after the derive call.
    func derive(length: Int, strings: [(String, String)], octets: [(String, Data)]) throws -> Data {
        let present = octets.filter { !$0.1.isEmpty }
        let cStrings = (strings.flatMap { [$0.0, $0.1] } + present.map(\.0)).map { strdup($0)! }
        defer { for string in cStrings { free(string) } }
        let buffers = present.map { copyToHeap($0.1) }
        defer { for buffer in buffers { buffer.deallocate() } }
        var params: [OSSL_PARAM] = []
        for at in strings.indices {
            params.append(OSSL_PARAM_construct_utf8_string(cStrings[2 * at], cStrings[2 * at + 1], 0))
        }
        for (at, buffer) in buffers.enumerated() {
            let name = cStrings[2 * strings.count + at]
            params.append(OSSL_PARAM_construct_octet_string(name, buffer.baseAddress, buffer.count))
        }
        params.append(OSSL_PARAM_construct_end())
        var out = Data(count: length)
        let result = out.withUnsafeMutableBytes { output in
            EVP_KDF_derive(handle, output.baseAddress!.assumingMemoryBound(to: UInt8.self), length, &params)
        }
        try check(result, "EVP_KDF_derive")
        return out
    }

    private func copyToHeap(_ data: Data) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
        buffer.copyBytes(from: data)
        return buffer
    }
}
