import COpenSSL
import Foundation

/// A point on P-256, held as an owned `EC_POINT`. Immutable: every operation returns a new point.
///
/// `@unchecked Sendable`: nothing mutates the `EC_POINT` after init, and OpenSSL reads it `const`.
public final class P256Point: @unchecked Sendable {
    let handle: OpaquePointer

    private init(owning point: OpaquePointer) { handle = point }

    private static func make() throws -> P256Point {
        guard let point = EC_POINT_new(P256.group.handle) else { throw CryptoError.openssl("EC_POINT_new") }
        return P256Point(owning: point)
    }

    deinit { EC_POINT_free(handle) }

    /// Decodes SEC1 bytes (65-byte uncompressed or 33-byte compressed); the point must be on the curve and
    /// not infinity.
    convenience init(decoding encoded: Data) throws {
        guard encoded.count == 65 || encoded.count == 33 else { throw CryptoError.invalidPoint }
        guard let point = EC_POINT_new(P256.group.handle) else { throw CryptoError.openssl("EC_POINT_new") }
        self.init(owning: point)
        let context = try BigNumberContext()
        let result = encoded.withUnsafeBytes { input in
            EC_POINT_oct2point(
                P256.group.handle, point, input.bindMemory(to: UInt8.self).baseAddress, encoded.count,
                context.handle)
        }
        // oct2point already refuses points off the curve; the explicit check keeps that promise visible.
        guard result == 1, isOnCurve, !isInfinity else {
            ERR_clear_error()
            throw CryptoError.invalidPoint
        }
    }

    /// `k·G`.
    public static func multiplyGenerator(_ scalar: P256Scalar) throws -> P256Point {
        let out = try make()
        let context = try BigNumberContext()
        try check(
            EC_POINT_mul(P256.group.handle, out.handle, scalar.number.handle, nil, nil, context.handle),
            "EC_POINT_mul")
        return out
    }

    /// `k·self`.
    public func multiplied(by scalar: P256Scalar) throws -> P256Point {
        let out = try Self.make()
        let context = try BigNumberContext()
        try check(
            EC_POINT_mul(P256.group.handle, out.handle, nil, handle, scalar.number.handle, context.handle),
            "EC_POINT_mul")
        return out
    }

    /// `self + other`.
    public func adding(_ other: P256Point) throws -> P256Point {
        let out = try Self.make()
        let context = try BigNumberContext()
        try check(EC_POINT_add(P256.group.handle, out.handle, handle, other.handle, context.handle), "EC_POINT_add")
        return out
    }

    /// `−self`.
    public func negated() throws -> P256Point {
        let out = try Self.make()
        let context = try BigNumberContext()
        try check(EC_POINT_copy(out.handle, handle), "EC_POINT_copy")
        try check(EC_POINT_invert(P256.group.handle, out.handle, context.handle), "EC_POINT_invert")
        return out
    }

    /// True when the point satisfies the curve equation.
    public var isOnCurve: Bool {
        guard let context = try? BigNumberContext() else { return false }
        return EC_POINT_is_on_curve(P256.group.handle, handle, context.handle) == 1
    }

    /// True for the point at infinity (the group's identity).
    public var isInfinity: Bool { EC_POINT_is_at_infinity(P256.group.handle, handle) == 1 }

    /// SEC1 uncompressed encoding, `04 || X || Y` (65 bytes). Throws for the point at infinity.
    public func uncompressed() throws -> Data {
        guard !isInfinity else { throw CryptoError.invalidPoint }
        var out = Data(count: 65)
        let context = try BigNumberContext()
        let written = out.withUnsafeMutableBytes { output in
            EC_POINT_point2oct(
                P256.group.handle, handle, POINT_CONVERSION_UNCOMPRESSED,
                output.bindMemory(to: UInt8.self).baseAddress, 65, context.handle)
        }
        guard written == 65 else { throw CryptoError.openssl("EC_POINT_point2oct") }
        return out
    }

    /// The 32-byte X coordinate, the shared secret of ECDH.
    public func xCoordinate() throws -> Data {
        try uncompressed().subdata(in: 1..<33)
    }
}

/// An ephemeral P-256 key pair for ECDH; the private scalar never leaves this value.
public struct P256KeyPair: Sendable {
    private let privateScalar: P256Scalar
    /// `a·G`, SEC1 uncompressed.
    public let publicKey: Data

    /// A fresh random key pair.
    public init() throws {
        try self.init(scalar: P256Scalar.random())
    }

    /// A key pair from a given scalar, for known-answer tests.
    public init(scalar: P256Scalar) throws {
        privateScalar = scalar
        publicKey = try P256Point.multiplyGenerator(scalar).uncompressed()
    }

    /// ECDH: the X coordinate of `a·peer`. Throws when `peer` is not a valid point.
    public func sharedSecret(with peerPublicKey: Data) throws -> Data {
        guard peerPublicKey.count == 65 else { throw CryptoError.invalidPoint }
        return try P256Point(decoding: peerPublicKey).multiplied(by: privateScalar).xCoordinate()
    }
}
