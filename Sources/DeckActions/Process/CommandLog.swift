import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A per-button log file that command output is appended to; remembers where this run's output starts.
final class CommandLog {
    let path: String
    private(set) var descriptor: Int32
    private var outputStart: off_t = 0

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Opens (creating dirs and file, owner-only) `directory/name.log` for appending.
    static func open(directory: String, name: String) throws -> CommandLog {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/" + name + ".log"
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        return CommandLog(path: path, descriptor: fd)
    }

    /// Writes a separator line naming the command and the time, so runs can be told apart.
    func appendHeader(for command: String) {
        let header = "--- \(Self.utcStamp()) $ \(command)\n"
        _ = header.withCString { write(descriptor, $0, strlen($0)) }
        outputStart = lseek(descriptor, 0, SEEK_END)
    }

    /// Now as `2026-12-02T08:07:50Z`, by gmtime_r and strftime: a new ISO8601DateFormatter per press read the
    /// zone files each time, a few milliseconds of a command key's press.
    static func utcStamp(_ time: time_t = Glibc.time(nil)) -> String {
        var seconds = time
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: text[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Closes the parent's copy; the child keeps writing through its own.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// This run's output in the file, readable after the log is closed.
    var output: CommandOutput { CommandOutput(path: path, start: UInt64(max(outputStart, 0))) }

    /// What this run printed so far (the last 64 KiB of it).
    func outputSinceHeader() -> String { output.tail() }
}

/// Where one run's output lies in its log file: from `start` to the end.
struct CommandOutput: Sendable {
    let path: String
    let start: UInt64

    /// The last `limit` bytes of the run's output (its last line is what a failure shows).
    func tail(limit: UInt64 = 64 * 1024) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let end = (try? handle.seekToEnd()) ?? start
        try? handle.seek(toOffset: max(start, end > limit ? end - limit : 0))
        let data = (try? handle.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
