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
        let stamp = ISO8601DateFormatter().string(from: Date())
        let header = "--- \(stamp) $ \(command)\n"
        _ = header.withCString { write(descriptor, $0, strlen($0)) }
        outputStart = lseek(descriptor, 0, SEEK_END)
    }

    /// Closes the parent's copy; the child keeps writing through its own.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// What this run printed so far (the tail of the file after its header).
    func outputSinceHeader() -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(max(outputStart, 0)))
        let data = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
