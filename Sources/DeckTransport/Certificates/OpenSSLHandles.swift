import COpenSSL
import Foundation

// One owning class per OpenSSL handle, freed in `deinit`. None of them is shared across threads: the
// certificate store builds and reads them on the caller's thread and drops them before returning.

/// Fails with the OpenSSL error queue's newest message; the one funnel from libcrypto results to errors.
func openSSLCheck(_ ok: Bool, _ what: String) throws {
    guard !ok else { return }
    let code = ERR_get_error()
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    ERR_clear_error()
    throw TransportError.certificate("\(what): \(String(cBuffer: buffer))")
}

/// An owned `EVP_PKEY*` holding an EC P-256 key pair.
final class PrivateKey {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh P-256 key pair from the OpenSSL default provider.
    static func generateP256() throws -> PrivateKey {
        let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)
        try openSSLCheck(context != nil, "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try openSSLCheck(EVP_PKEY_keygen_init(context) == 1, "EVP_PKEY_keygen_init")
        try openSSLCheck(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1, "EVP_PKEY_CTX_set_group_name")
        var key: OpaquePointer?
        try openSSLCheck(EVP_PKEY_keygen(context, &key) == 1 && key != nil, "EVP_PKEY_keygen")
        return PrivateKey(pointer: key!)
    }

    /// Reads an unencrypted PEM private key.
    init(pem: Data) throws {
        let bio = try MemoryBIO(data: pem)
        let key = PEM_read_bio_PrivateKey(bio.pointer, nil, nil, nil)
        try openSSLCheck(key != nil, "PEM_read_bio_PrivateKey")
        pointer = key!
    }

    /// The key as unencrypted PKCS#8 PEM.
    func pem() throws -> Data {
        let bio = try MemoryBIO()
        try openSSLCheck(
            PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil) == 1, "PEM_write_bio_PrivateKey")
        return bio.contents()
    }
}

/// An owned `X509*`.
final class Certificate {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }

    /// Reads the first PEM certificate in `pem`.
    convenience init(pem: Data) throws {
        let bio = try MemoryBIO(data: pem)
        let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil)
        try openSSLCheck(certificate != nil, "PEM_read_bio_X509")
        self.init(taking: certificate!)
    }

    /// The certificate as PEM.
    func pem() throws -> Data {
        let bio = try MemoryBIO()
        try openSSLCheck(PEM_write_bio_X509(bio.pointer, pointer) == 1, "PEM_write_bio_X509")
        return bio.contents()
    }

    /// Whether `key` is the private half of this certificate's public key.
    func matches(_ key: PrivateKey) -> Bool {
        let ok = X509_check_private_key(pointer, key.pointer) == 1
        ERR_clear_error()
        return ok
    }

    /// Whether `issuerKey` signed this certificate.
    func isSigned(by issuerKey: PrivateKey) -> Bool {
        let ok = X509_verify(pointer, issuerKey.pointer) == 1
        ERR_clear_error()
        return ok
    }

    /// Whether a subjectAltName entry covers the DNS name.
    func covers(dnsName: String) -> Bool {
        X509_check_host(pointer, dnsName, dnsName.utf8.count, 0, nil) == 1
    }

    /// Whether a subjectAltName entry covers the numeric IPv4 or IPv6 address.
    func covers(ipAddress: String) -> Bool {
        X509_check_ip_asc(pointer, ipAddress, 0) == 1
    }

    /// Whether the certificate is still valid at `date`.
    func isValid(at date: Date) -> Bool {
        var time = time_t(date.timeIntervalSince1970)
        return X509_cmp_time(X509_get0_notAfter(pointer), &time) > 0
            && X509_cmp_time(X509_get0_notBefore(pointer), &time) < 0
    }
}

/// An owned memory `BIO*`, the bridge between PEM functions and `Data`.
final class MemoryBIO {
    let pointer: OpaquePointer
    /// Keeps the bytes alive for a read-only BIO, which points into them without copying.
    private let backing: UnsafeMutableRawBufferPointer?

    init() throws {
        let bio = BIO_new(BIO_s_mem())
        try openSSLCheck(bio != nil, "BIO_new")
        pointer = bio!
        backing = nil
    }

    init(data: Data) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.copyBytes(to: copy)
        let bio = BIO_new_mem_buf(copy.baseAddress, Int32(data.count))
        if bio == nil { copy.deallocate() }
        try openSSLCheck(bio != nil, "BIO_new_mem_buf")
        pointer = bio!
        backing = copy
    }

    deinit {
        BIO_free(pointer)
        backing?.deallocate()
    }

    /// Everything written so far.
    func contents() -> Data {
        let count = Int(BIO_ctrl_pending(pointer))
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { BIO_read(pointer, $0.baseAddress, Int32(count)) }
        return data.prefix(max(Int(read), 0))
    }
}

@available(*, unavailable) extension PrivateKey: Sendable {}
@available(*, unavailable) extension Certificate: Sendable {}
@available(*, unavailable) extension MemoryBIO: Sendable {}

extension String {
    /// The NUL-terminated text at the start of a C buffer.
    init(cBuffer buffer: [CChar]) {
        self = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
