import CAVFormat
import Foundation

/// Reads how long a saved recording plays, with libavformat (the same reader `ffprobe` uses). A file cut by a
/// kill has no index; its fragments are read one by one, so this may take a moment on a long file.
public enum RecordingProbe {
    /// The duration in microseconds, or nil when the file does not open as media.
    public static func duration(of url: URL) -> UInt64? {
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&context, url.path, nil, nil) >= 0 else { return nil }
        defer { avformat_close_input(&context) }
        guard avformat_find_stream_info(context, nil) >= 0, let context, context.pointee.duration > 0 else {
            return nil
        }
        return UInt64(context.pointee.duration)  // AV_TIME_BASE is microseconds
    }
}
