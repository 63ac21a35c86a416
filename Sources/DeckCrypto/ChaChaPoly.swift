import COpenSSL
import DeckKit
import Foundation

/// ChaCha20-Poly1305 AEAD (RFC 8439) through OpenSSL's EVP_chacha20_poly1305.
public enum ChaChaPoly {
    /// Key size in bytes.
    public static let keySize = 32
    /// Nonce size in bytes.
    public static let nonceSize = 12
    /// Tag size in bytes.
    public static let tagSize = 16

    /// Encrypts `plaintext`; returns ciphertext followed by the 16-byte tag.
    public static func seal(_ plaintext: Data, key: Data, nonce: Data, ad: Data) throws -> Data {
        try checkSizes(key: key, nonce: nonce)
        let context = try CipherContext()
        try context.start(key: key, nonce: nonce, encrypt: true)
        try context.addAuthenticatedData(ad)
        var out = try context.update(plaintext)
        try context.finish()
        out.append(try context.tag())
        return out
    }

    /// Decrypts ciphertext-plus-tag; throws `CryptoError.authenticationFailed` when the tag does not match.
    public static func open(_ sealed: Data, key: Data, nonce: Data, ad: Data) throws -> Data {
        try checkSizes(key: key, nonce: nonce)
        guard sealed.count >= tagSize else { throw CryptoError.malformed("sealed box too short") }
        let context = try CipherContext()
        try context.start(key: key, nonce: nonce, encrypt: false)
        try context.addAuthenticatedData(ad)
        let plaintext = try context.update(sealed.prefix(sealed.count - tagSize))
        try context.setTag(sealed.suffix(tagSize))
        guard (try? context.finish()) != nil else { throw CryptoError.authenticationFailed }
        return plaintext
    }

    /// Seals with a fresh random nonce; returns `nonce(12) || ciphertext || tag(16)`, the wire `box`.
    public static func sealBox(_ plaintext: Data, key: Data, ad: Data) throws -> Data {
        try sealBox(plaintext, key: key, ad: ad, header: Data())
    }

    /// `header || nonce || ciphertext || tag` in one buffer: sealed video frames are large, so the
    /// ciphertext is written in place instead of being copied behind the header afterwards.
    public static func sealBox(_ plaintext: Data, key: Data, ad: Data, header: Data) throws -> Data {
        guard key.count == keySize else { throw CryptoError.malformed("AEAD key size") }
        let nonce = SecureRandom.bytes(nonceSize)
        let bodyAt = header.count + nonceSize
        var out = Data(count: bodyAt + plaintext.count + tagSize)
        try out.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            buffer.copyBytes(from: header + nonce)
            let context = try CipherContext()
            try context.start(key: key, nonce: nonce, encrypt: true)
            try context.addAuthenticatedData(ad)
            try plaintext.withUnsafeBytes { input in
                try context.update(input, into: buffer.baseAddress! + bodyAt)
            }
            try context.finish()
            try context.tag(into: buffer.baseAddress! + bodyAt + plaintext.count)
        }
        return out
    }

    /// Opens a `nonce || ciphertext || tag` box.
    public static func openBox(_ box: Data, key: Data, ad: Data) throws -> Data {
        try openBox(box, skipping: 0, key: key, ad: ad)
    }

    /// Opens the box that starts `skipping` bytes into `message`, without copying it out first.
    public static func openBox(_ message: Data, skipping headerSize: Int, key: Data, ad: Data) throws -> Data {
        guard key.count == keySize else { throw CryptoError.malformed("AEAD key size") }
        let count = message.count - headerSize - nonceSize - tagSize
        guard headerSize >= 0, count >= 0 else { throw CryptoError.malformed("box too short") }
        var plaintext = Data(count: count)
        try message.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            let nonce = Data(input[headerSize..<headerSize + nonceSize])
            let context = try CipherContext()
            try context.start(key: key, nonce: nonce, encrypt: false)
            try context.addAuthenticatedData(ad)
            try plaintext.withUnsafeMutableBytes { output in
                let body = UnsafeRawBufferPointer(rebasing: input[(headerSize + nonceSize)...].prefix(count))
                try context.update(body, into: output.baseAddress)
            }
            try context.setTag(Data(input.suffix(tagSize)))
            guard (try? context.finish()) != nil else { throw CryptoError.authenticationFailed }
        }
        return plaintext
    }

    private static func checkSizes(key: Data, nonce: Data) throws {
        guard key.count == keySize else { throw CryptoError.malformed("AEAD key size") }
        guard nonce.count == nonceSize else { throw CryptoError.malformed("AEAD nonce size") }
    }
}

/// Owns one `EVP_CIPHER_CTX`; freed in deinit. Used on one thread at a time: for one seal or open, or for
/// every message of a `BinarySealer` (each `start` sets the key and a new nonce; the cipher is chosen once).
final class CipherContext {
    private let handle: OpaquePointer
    private var encrypting = true
    private var hasCipher = false

    init() throws {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openssl("EVP_CIPHER_CTX_new") }
        handle = context
    }

    deinit { EVP_CIPHER_CTX_free(handle) }

    func start(key: Data, nonce: Data, encrypt: Bool) throws {
        encrypting = encrypt
        // Again on a used context: a NULL cipher keeps the one chosen, the key and nonce start a new message.
        let cipher = hasCipher ? nil : EVP_chacha20_poly1305()
        let result = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBytes { nonceBytes in
                EVP_CipherInit_ex(
                    handle, cipher, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress,
                    nonceBytes.bindMemory(to: UInt8.self).baseAddress, encrypt ? 1 : 0)
            }
        }
        try check(result, "EVP_CipherInit_ex")
        hasCipher = true
    }

    /// Seals `message` in place: its bytes become the ciphertext, the tag is added behind and the nonce in front.
    func seal(_ message: inout WireBuffer, key: Data, nonce: Data, ad: UnsafeRawBufferPointer) throws {
        let count = message.count
        message.append(ChaChaPoly.tagSize) { _ in }  // room for the tag, written by `seal` below
        try message.withUnsafeMutableBytes { bytes in
            let plaintext = UnsafeRawBufferPointer(rebasing: bytes[..<count])
            try seal(plaintext, into: bytes.baseAddress!, key: key, nonce: nonce, ad: ad)
        }
        message.prepend(nonce)
    }

    /// Encrypts `plaintext` to `output` (which may be where the plaintext is) and writes the tag right after.
    func seal(
        _ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, key: Data, nonce: Data,
        ad: UnsafeRawBufferPointer
    ) throws {
        try start(key: key, nonce: nonce, encrypt: true)
        try addAuthenticatedData(ad)
        try update(plaintext, into: output)
        try finish()
        try tag(into: output + plaintext.count)
    }

    func addAuthenticatedData(_ ad: Data) throws {
        try ad.withUnsafeBytes { try addAuthenticatedData($0) }
    }

    func addAuthenticatedData(_ ad: UnsafeRawBufferPointer) throws {
        if ad.isEmpty { return }
        var written: Int32 = 0
        // A NULL output buffer tells OpenSSL the input is associated data, not plaintext.
        let result = EVP_CipherUpdate(handle, nil, &written, ad.bindMemory(to: UInt8.self).baseAddress, Int32(ad.count))
        try check(result, "EVP_CipherUpdate(ad)")
    }

    func update(_ input: Data) throws -> Data {
        if input.isEmpty { return Data() }
        guard input.count < Int32.max else { throw CryptoError.malformed("AEAD input too large") }
        var out = Data(count: input.count)
        var written: Int32 = 0
        let result = out.withUnsafeMutableBytes { output in
            input.withUnsafeBytes { bytes in
                EVP_CipherUpdate(
                    handle, output.bindMemory(to: UInt8.self).baseAddress, &written,
                    bytes.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
            }
        }
        try check(result, "EVP_CipherUpdate")
        return out.prefix(Int(written))
    }

    /// Encrypts or decrypts `input` into `output`, which has room for `input.count` bytes.
    func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer?) throws {
        if input.isEmpty { return }
        guard input.count < Int32.max, let output else { throw CryptoError.malformed("AEAD input too large") }
        var written: Int32 = 0
        let result = EVP_CipherUpdate(
            handle, output.assumingMemoryBound(to: UInt8.self), &written,
            input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
        try check(result, "EVP_CipherUpdate")
    }

    func tag(into output: UnsafeMutableRawPointer) throws {
        let result = EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_AEAD_GET_TAG, Int32(ChaChaPoly.tagSize), output)
        try check(result, "EVP_CTRL_AEAD_GET_TAG")
    }

    func finish() throws {
        var written: Int32 = 0
        // A stream cipher writes nothing here; OpenSSL still wants room for a block.
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            EVP_CipherFinal_ex(handle, scratch.baseAddress, &written)
        }
        try check(result, "EVP_CipherFinal_ex")
    }

    func tag() throws -> Data {
        var tag = Data(count: ChaChaPoly.tagSize)
        let result = tag.withUnsafeMutableBytes { bytes in
            EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_AEAD_GET_TAG, Int32(ChaChaPoly.tagSize), bytes.baseAddress)
        }
        try check(result, "EVP_CTRL_AEAD_GET_TAG")
        return tag
    }

    func setTag(_ tag: Data) throws {
        var copy = Data(tag)
        let result = copy.withUnsafeMutableBytes { bytes in
            EVP_CIPHER_CTX_ctrl(handle, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), bytes.baseAddress)
        }
        try check(result, "EVP_CTRL_AEAD_SET_TAG")
    }
}
