import CAVCodec
import Foundation

/// Why a recording could not start or had to end.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The capture of the monitor ended (the display went away, the monitor was unplugged).
    case capture(String)
    /// The video or audio encoder failed.
    case encoder(String)
    /// The file system has no room left for the next fragment.
    case diskFull
    /// Writing the file failed for another reason (permissions, a removed folder).
    case write(String)

    public var description: String {
        switch self {
        case .capture(let detail): "the capture ended: \(detail)"
        case .encoder(let detail): "the encoder failed: \(detail)"
        case .diskFull: "the disk is full"
        case .write(let detail): "writing the file failed: \(detail)"
        }
    }
}

/// The one funnel from libavformat/libavcodec return codes to `RecordingError`.
enum FFCall {
    /// Returns `code` when it is not an error; ENOSPC becomes `diskFull`, anything else `make(message)`.
    @discardableResult
    static func check(_ code: Int32, _ call: String, as make: (String) -> RecordingError = RecordingError.write)
        throws -> Int32
    {
        guard code < 0 else { return code }
        if code == -ENOSPC { throw RecordingError.diskFull }
        throw make("\(call): \(message(code))")
    }

    /// `av_strerror` as a Swift string.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
