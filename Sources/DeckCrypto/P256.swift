import COpenSSL
import Foundation

/// The P-256 group (SEC 2 secp256r1): generator, order, and point decoding.
///
/// `@unchecked Sendable`: the `EC_GROUP` is built once and only read afterwards (OpenSSL's point and scalar
/// functions take it `const`), so sharing it between threads is safe.
public final class P256: @unchecked Sendable {
    /// The one shared group.
    public static let group = P256()

    let handle: OpaquePointer
    /// The group order `n`, 32 bytes big-endian.
    public let order: Data

    private init() {
        // Without P-256 nothing in the protocol can work; this is a broken libcrypto, not an input problem.
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            preconditionFailure("EC_GROUP_new_by_curve_name(P-256) failed")
        }
        handle = group
        let orderNumber = BigNumber(borrowing: EC_GROUP_get0_order(group))
        order = orderNumber.bytes32()
    }

    deinit { EC_GROUP_free(handle) }

    /// The base point `G`.
    public var generator: P256Point {
        get throws { try P256Point.multiplyGenerator(P256Scalar(one: ())) }
    }

    /// Decodes a SEC1 point (uncompressed or compressed); throws unless it lies on the curve.
    public func point(_ encoded: Data) throws -> P256Point {
        try P256Point(decoding: encoded)
    }
}

/// A scalar modulo the P-256 order, held as an owned `BIGNUM`.
public final class P256Scalar: @unchecked Sendable {
    // Immutable after init: every operation makes a new scalar, so sharing one is safe.
    let number: BigNumber

    /// `OS2IP(bytes) mod n`, for any length (40 bytes give an unbiased scalar, RFC 9382 §3.2).
    public init(reducing bytes: Data) throws {
        let raw = try BigNumber(bytes: bytes)
        number = try raw.reduced(modulo: BigNumber(bytes: P256.group.order))
    }

    /// A uniformly random scalar in [1, n−1].
    public static func random() throws -> P256Scalar {
        let scalar = P256Scalar(number: try BigNumber.random(below: BigNumber(bytes: P256.group.order)))
        return scalar.isZero ? try random() : scalar
    }

    init(one: ()) throws { number = try BigNumber(bytes: Data([1])) }

    private init(number: BigNumber) { self.number = number }

    /// 32 bytes big-endian.
    public var bytes: Data { number.bytes32() }

    /// True for the zero scalar.
    public var isZero: Bool { BN_is_zero(number.handle) == 1 }
}

/// Owns one `BIGNUM` (or borrows a const one that OpenSSL owns).
final class BigNumber {
    let handle: OpaquePointer
    private let owned: Bool

    init(bytes: Data) throws {
        let number = bytes.withUnsafeBytes { input in
            BN_bin2bn(input.bindMemory(to: UInt8.self).baseAddress, Int32(bytes.count), nil)
        }
        guard let number else { throw CryptoError.openssl("BN_bin2bn") }
        handle = number
        owned = true
    }

    init(borrowing number: OpaquePointer?) {
        handle = number!
        owned = false
    }

    private init(owning number: OpaquePointer) {
        handle = number
        owned = true
    }

    deinit { if owned { BN_free(handle) } }

    static func random(below bound: BigNumber) throws -> BigNumber {
        guard let number = BN_new() else { throw CryptoError.openssl("BN_new") }
        let result = BigNumber(owning: number)
        try check(BN_rand_range(number, bound.handle), "BN_rand_range")
        return result
    }

    func reduced(modulo modulus: BigNumber) throws -> BigNumber {
        guard let number = BN_new() else { throw CryptoError.openssl("BN_new") }
        let result = BigNumber(owning: number)
        let context = try BigNumberContext()
        try check(BN_nnmod(number, handle, modulus.handle, context.handle), "BN_nnmod")
        return result
    }

    /// 32 bytes big-endian; callers only pass values below 2^256.
    func bytes32() -> Data {
        var out = Data(count: 32)
        let written = out.withUnsafeMutableBytes { output in
            BN_bn2binpad(handle, output.bindMemory(to: UInt8.self).baseAddress, 32)
        }
        precondition(written == 32, "scalar wider than 32 bytes")
        return out
    }
}

/// Owns one `BN_CTX` (OpenSSL's scratch space for big-number arithmetic); one per operation, never shared.
final class BigNumberContext {
    let handle: OpaquePointer

    init() throws {
        guard let context = BN_CTX_new() else { throw CryptoError.openssl("BN_CTX_new") }
        handle = context
    }

    deinit { BN_CTX_free(handle) }
}
