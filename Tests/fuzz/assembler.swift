import Foundation

// One input is a list of chunks: [length][flags][remaining: 8 bytes BE][chunk bytes]… where flags bit 0 is
// binary and bit 1 final. Properties: no trap; a message never exceeds the limit.

private struct Reader {
    var bytes: [UInt8]
    var at = 0
    mutating func take(_ n: Int) -> [UInt8]? {
        guard n >= 0, bytes.count - at >= n else { return nil }
        defer { at += n }
        return Array(bytes[at..<at + n])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var reader = Reader(bytes: Array(UnsafeBufferPointer(start: bytes, count: count)))
    var assembler = MessageAssembler(limit: 64)
    while let head = reader.take(10) {
        let remaining = Int(truncatingIfNeeded: head[2...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        guard let chunk = reader.take(Int(head[0] % 32)) else { break }
        let outcome = chunk.withUnsafeBytes {
            assembler.append(
                $0, isBinary: head[1] & 1 != 0, isFinal: head[1] & 2 != 0, remainingInFrame: max(0, remaining))
        }
        if case .message(let data, _) = outcome { precondition(data.count <= 64, "over the limit") }
    }
    return 0
}
