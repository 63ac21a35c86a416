import Foundation

/// Reads the NAL units out of an H.264 Annex-B byte stream (units separated by 00 00 01 or 00 00 00 01).
public enum AnnexB {
    /// NAL unit types this code cares about (H.264 table 7-1).
    public enum UnitType: UInt8 {
        case slice = 1
        case idrSlice = 5
        case sei = 6
        case sps = 7
        case pps = 8
        case accessUnitDelimiter = 9
    }

    /// The NAL units of `stream`, each without its start code. Bytes before the first start code are skipped.
    public static func units(_ stream: Data) -> [Data] {
        stream.withUnsafeBytes { bytes in unitRanges(bytes).map { Data(bytes[$0]) } }
    }

    /// Where the NAL units of `stream` are (without their start codes), read in place: the encoder checks
    /// every keyframe, whose bytes are then sent without another copy.
    public static func unitRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index + 2] > 1 {
                index += 3  // no start code can end at index + 2 or before it
            } else if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                // A four-byte start code is the three-byte one after a zero.
                let code = index > 0 && bytes[index - 1] == 0 ? index - 1 : index
                starts.append((code, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.indices.map { i in
            let end = i + 1 < starts.count ? starts[i + 1].code : bytes.count
            return starts[i].payload..<max(end, starts[i].payload)
        }
    }

    /// The type of one NAL unit (the low five bits of its first byte).
    public static func type(of unit: Data) -> UInt8? {
        unit.first.map { $0 & 0x1F }
    }

    /// SPS then PPS units of `stream`, without start codes, in stream order.
    public static func parameterSets(_ stream: Data) -> [Data] {
        stream.withUnsafeBytes { parameterSets($0) }
    }

    /// SPS then PPS units, each copied out (they are a few bytes).
    public static func parameterSets(_ bytes: UnsafeRawBufferPointer) -> [Data] {
        let wanted = [UnitType.sps.rawValue, UnitType.pps.rawValue]
        return unitRanges(bytes).filter { !$0.isEmpty && wanted.contains(bytes[$0.lowerBound] & 0x1F) }
            .map { Data(bytes[$0]) }
    }

    /// Whether `stream` holds an IDR slice.
    public static func containsIDR(_ stream: Data) -> Bool {
        stream.withUnsafeBytes { containsIDR($0) }
    }

    /// Whether the bytes hold an IDR slice, read in place.
    public static func containsIDR(_ bytes: UnsafeRawBufferPointer) -> Bool {
        unitRanges(bytes).contains { !$0.isEmpty && bytes[$0.lowerBound] & 0x1F == UnitType.idrSlice.rawValue }
    }
}
