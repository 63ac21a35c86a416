import CAVCodec
import Foundation

/// What can go wrong while converting or encoding.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// No encoder of that name is compiled into libavcodec.
    case encoderMissing(String)
    /// A libavcodec/libavutil call failed; `detail` is FFmpeg's own last error message, when it gave one.
    case codec(call: String, code: Int32, detail: String)
    /// libyuv refused a conversion (bad sizes or strides).
    case conversion(call: String, code: Int32)
    /// The encoder returned no access unit for a frame (it must, with no B-frames and zero latency).
    case noOutput

    public var description: String {
        switch self {
        case .encoderMissing(let name): "encoder \(name) is not in this libavcodec"
        case .codec(let call, let code, let detail):
            "\(call) failed: \(AVCall.message(code))" + (detail.isEmpty ? "" : " (\(detail))")
        case .conversion(let call, let code): "\(call) failed with \(code)"
        case .noOutput: "the encoder returned no frame"
        }
    }
}

/// The one funnel from FFmpeg return codes to `MediaError`.
enum AVCall {
    /// Returns `code` when it is not an error, else throws with FFmpeg's message.
    @discardableResult
    static func check(_ code: Int32, _ call: String) throws -> Int32 {
        guard code < 0 else { return code }
        throw MediaError.codec(call: call, code: code, detail: AVLog.takeLastError())
    }

    /// `av_strerror` as a Swift string.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Keeps FFmpeg's own log off stderr and remembers its last error line.
///
/// Why: a hardware encoder that fails to open prints several lines of its own ("Cannot load libcuda.so.1");
/// the host must print exactly one line about the fallback, which quotes this message instead.
/// The C side keeps the line per thread, in storage private to this file's object (see CAVCodec/shim.h).
enum AVLog {
    private static let installed: Void = deck_av_log_capture()

    /// Routes FFmpeg's log into the shim; safe to call any number of times.
    static func install() { _ = installed }

    /// The last error FFmpeg logged on this thread since the previous call (empty if none), and forgets it.
    static func takeLastError() -> String {
        let line = deck_av_last_error()!
        defer { line[0] = 0 }
        return String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
