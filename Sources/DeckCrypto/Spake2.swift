import Foundation

/// SPAKE2 (RFC 9382) over P-256 with SHA-256, HKDF and HMAC, as PROTOCOL.md §3 uses it.
///
/// One value per party. The device is A, the host is B. `share` is the message to send; `finish` takes the
/// peer's share and returns the key schedule. Everything is computed from `w` and the party's scalar, which
/// tests inject to reproduce RFC 9382 Appendix B.
public struct Spake2: Sendable {
    /// Which side of the exchange this party plays.
    public enum Role: Sendable { case a, b }

    /// RFC 9382's M for P-256 (compressed SEC1).
    public static let mEncoded = Bytes.fromHex("02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f")!
    /// RFC 9382's N for P-256 (compressed SEC1).
    public static let nEncoded = Bytes.fromHex("03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49")!

    /// What both sides derive once the shares are exchanged (RFC 9382 §4).
    public struct Keys: Sendable, Equatable {
        /// The transcript TT.
        public var transcript: Data
        /// First half of SHA-256(TT): the shared secret.
        public var ke: Data
        /// Second half of SHA-256(TT): the confirmation secret.
        public var ka: Data
        /// A's confirmation key.
        public var kcA: Data
        /// B's confirmation key.
        public var kcB: Data
        /// A's confirmation, HMAC(KcA, TT).
        public var cA: Data
        /// B's confirmation, HMAC(KcB, TT).
        public var cB: Data
    }

    public let role: Role
    private let w: P256Scalar
    private let scalar: P256Scalar
    private let idA: Data
    private let idB: Data
    /// This party's message: pA = x·G + w·M for A, pB = y·G + w·N for B (65 bytes uncompressed).
    public let share: Data

    /// A party with a fresh random scalar.
    public init(role: Role, w: P256Scalar, idA: Data, idB: Data) throws {
        try self.init(role: role, w: w, scalar: P256Scalar.random(), idA: idA, idB: idB)
    }

    /// A party with a given scalar (x for A, y for B); for known-answer tests.
    public init(role: Role, w: P256Scalar, scalar: P256Scalar, idA: Data, idB: Data) throws {
        self.role = role
        self.w = w
        self.scalar = scalar
        self.idA = idA
        self.idB = idB
        let mask = try Self.maskPoint(role == .a ? Self.mEncoded : Self.nEncoded).multiplied(by: w)
        share = try P256Point.multiplyGenerator(scalar).adding(mask).uncompressed()
    }

    /// The password scalar from a PIN: `OS2IP(HKDF-SHA256(IKM = PIN, salt = "", info = "TouchDeck SPAKE2 w",
    /// L = 40)) mod n` (PROTOCOL.md §3).
    public static func passwordScalar(pin: String) throws -> P256Scalar {
        let wide = try HKDF.derive(ikm: Data(pin.utf8), info: Data("TouchDeck SPAKE2 w".utf8), length: 40)
        return try P256Scalar(reducing: wide)
    }

    /// Takes the peer's share and derives the keys. Throws `CryptoError.invalidPoint` when the share is not a
    /// 65-byte point on the curve.
    ///
    /// A share that makes K the point at infinity (`pA = w'·M` with the right PIN's `w'`) does not throw, though
    /// RFC 9382 says abort: a host that refused it would tell a stranger, for free, that `w'` was right. K is
    /// replaced by random bytes instead, so the confirmations match nothing and the guess fails like any other.
    public func finish(peerShare: Data) throws -> Keys {
        guard peerShare.count == 65, peerShare.first == 0x04 else { throw CryptoError.invalidPoint }
        let peer = try P256Point(decoding: peerShare)
        let peerMask = try Self.maskPoint(role == .a ? Self.nEncoded : Self.mEncoded).multiplied(by: w)
        let unmasked = try peer.adding(peerMask.negated())
        let k = try unmasked.multiplied(by: scalar)
        // Random bytes rather than a random point: no extra scalar multiplication makes this case slower.
        let kEncoded = k.isInfinity ? Data([0x04]) + SecureRandom.bytes(64) : try k.uncompressed()
        let (pA, pB) = role == .a ? (share, peerShare) : (peerShare, share)
        return try Self.keySchedule(
            transcript: [idA, idB, pA, pB, kEncoded, w.bytes].map(Bytes.lengthPrefixed).reduce(Data(), +))
    }

    /// RFC 9382 §4: Ke || Ka = Hash(TT); KcA || KcB = KDF(Ka, "ConfirmationKeys"); cX = MAC(KcX, TT).
    static func keySchedule(transcript: Data) throws -> Keys {
        let digest = SHA256.hash(transcript)
        let ka = digest.suffix(16)
        let confirmation = try HKDF.derive(ikm: Data(ka), info: Data("ConfirmationKeys".utf8), length: 32)
        let kcA = confirmation.prefix(16)
        let kcB = confirmation.suffix(16)
        return Keys(
            transcript: transcript, ke: Data(digest.prefix(16)), ka: Data(ka), kcA: Data(kcA), kcB: Data(kcB),
            cA: HMACSHA256.mac(key: Data(kcA), message: transcript),
            cB: HMACSHA256.mac(key: Data(kcB), message: transcript))
    }

    private static func maskPoint(_ encoded: Data) throws -> P256Point {
        try P256Point(decoding: encoded)
    }
}
