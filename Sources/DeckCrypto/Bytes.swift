import COpenSSL
import Foundation

/// Byte helpers shared by the handshake code: hex, fixed-width integers, constant-time comparison.
public enum Bytes {
    /// Lowercase hex of `data`.
    public static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    /// Bytes from a hex string; nil when it is not an even run of hex digits.
    public static func fromHex(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out = Data(capacity: digits.count / 2)
        for at in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[at]), let low = nibble(digits[at + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// An 8-byte little-endian count, the length prefix of the SPAKE2 and auth transcripts.
    public static func lengthPrefixed(_ data: Data) -> Data {
        withUnsafeBytes(of: UInt64(data.count).littleEndian) { Data($0) } + data
    }

    /// 8 bytes big-endian, the seq prefix of a sealed binary message.
    public static func bigEndian(_ value: UInt64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// Reads 8 bytes big-endian starting at `data.startIndex`; the caller checks the length.
    public static func readBigEndian(_ data: Data) -> UInt64 {
        data.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Compares in time that depends only on the lengths, so a MAC check leaks nothing about where it differs.
    public static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, lhs.count) == 0
            }
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Cryptographically strong random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> Data {
        var out = Data(count: count)
        if count == 0 { return out }
        let result = out.withUnsafeMutableBytes { buffer in
            RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(count))
        }
        // A DRBG that cannot seed leaves nothing safe to do: continuing would hand out guessable keys.
        precondition(result == 1, "RAND_bytes failed")
        return out
    }
}
