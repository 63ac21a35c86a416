import Foundation

/// Reads big- and little-endian fields off the front of a packet. Every read returns nil when the bytes
/// run out, so a truncated packet is dropped, never a crash.
struct ByteReader {
    private let data: Data
    private var offset: Data.Index

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    /// Bytes not read yet.
    var remaining: Int { data.endIndex - offset }

    mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        defer { offset += size }
        return data[offset..<offset + size].reduce(T(0)) { $0 << 8 | T($1) }
    }

    /// `count` bytes as a fresh `Data` starting at index 0.
    mutating func bytes(_ count: Int) -> Data? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Data(data[offset..<offset + count])
    }

    /// Everything left, starting at index 0.
    mutating func rest() -> Data { bytes(remaining) ?? Data() }
}

extension Data {
    /// Appends an integer as big-endian bytes.
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
