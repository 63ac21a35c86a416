import Foundation

/// Constants and derivations PROTOCOL.md §3 fixes for TouchDeck's SPAKE2.
public enum PairingKeys {
    /// SPAKE2 identity of A, the device.
    public static let deviceIdentity = Data("TouchDeck device".utf8)
    /// SPAKE2 identity of B, the host.
    public static let hostIdentity = Data("TouchDeck host".utf8)

    /// The key of the `paired.box`: HKDF-SHA256(salt = "", IKM = Ke, info = "TouchDeck pairing secret", 32).
    public static func boxKey(ke: Data) throws -> Data {
        try HKDF.derive(ikm: ke, info: Data("TouchDeck pairing secret".utf8), length: 32)
    }

    /// A SPAKE2 party for the device (A) or host (B) from a PIN, with a fresh random scalar.
    static func party(_ role: Spake2.Role, pin: String) throws -> Spake2 {
        try Spake2(role: role, w: Spake2.passwordScalar(pin: pin), idA: deviceIdentity, idB: hostIdentity)
    }

    /// A 65-byte uncompressed point from base64, or nil.
    static func point(base64 text: String) -> Data? {
        guard let data = Data(base64Encoded: text), data.count == 65, data.first == 0x04 else { return nil }
        return data
    }
}
