import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file in a folder the host reads for devices (recordings, thumbnails), opened without trusting what the
/// folder holds: anyone who can write there can put a link to `devices.json`, a FIFO that blocks `open` forever,
/// or `/dev/zero` under a name that looks right. So entries are judged with `lstat` (a link is a link, never
/// what it points to), opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO or device opens without waiting, a link
/// does not open at all), and kept only when `fstat` of the open descriptor says regular file: the check and
/// the read are of the same file, whatever is renamed meanwhile.
enum FolderFile {
    /// Whether `path` is a regular file itself (not a link to one, not a FIFO, socket or device).
    static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The regular file at `path`, opened for reading, or nil for anything else.
    static func open(_ path: String) -> FileHandle? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        // Reads of a regular file never see EAGAIN; blocking mode back for FileHandle's plain reads.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The whole regular file at `path` when it is at most `limit` bytes; nil otherwise.
    static func read(_ path: String, limit: Int) -> Data? {
        guard let handle = open(path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1), data.count <= limit else { return nil }
        return data
    }

    /// A path that names the open file itself (for a library that opens by path: it reopens this very file,
    /// not whatever the folder holds under the name by then).
    static func path(of handle: FileHandle) -> String { "/proc/self/fd/\(handle.fileDescriptor)" }

    /// Writes `data` to a new file only its owner can read (0600 whatever the umask), replacing a file of that name.
    static func writePrivate(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            _ = fchmod(descriptor, 0o600)
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Makes `url` a folder only its owner may enter (0700), creating it and its parents as needed.
    static func privateFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        _ = chmod(url.path, 0o700)
    }
}

/// Blocking file work (listing, reading, digesting, probing recordings) on threads of its own, never on the
/// cooperative pool the actor runs on: a slow disk or a huge file then delays only the device that asked. A
/// caller waits until the work has made no progress for `timeout` (work that says so through its `Heartbeat`,
/// such as the digest of a 16 GB recording, may take minutes; a folder that hangs is given up after `timeout`);
/// the work itself runs on to its end and its result is dropped.
///
/// Each piece of work gets a thread of its own rather than a slot in a dispatch queue: libdispatch on Linux
/// cannot see a worker blocked in a read or a sleep, so a concurrent queue with a few hung workers starts new work
/// late, and the wait would count that delay against work that has not begun (seen as a timeout of work that
/// beat every 20 ms while the test process was busy).
enum FileWork {

    /// Why file work gave no answer.
    struct TimedOut: Error, CustomStringConvertible {
        var description: String { "the recordings folder did not answer in time" }
    }

    /// What long work beats while it makes progress: each beat gives it another `timeout`.
    final class Heartbeat: @unchecked Sendable {
        private let lock = NSLock()
        private var last = DispatchTime.now()

        func beat() { lock.withLock { last = .now() } }

        fileprivate var lastBeat: DispatchTime { lock.withLock { last } }
    }

    static func run<T: Sendable>(timeout: Duration = .seconds(20), _ work: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await run(timeout: timeout) { (_: Heartbeat) in try work() }
    }

    static func run<T: Sendable>(
        timeout: Duration = .seconds(20), _ work: @escaping @Sendable (Heartbeat) throws -> T
    ) async throws -> T {
        let once = ResumeOnce<T>()
        let heartbeat = Heartbeat()
        let (seconds, attoseconds) = timeout.components
        let limit = Double(seconds) + Double(attoseconds) / 1e18
        return try await withCheckedThrowingContinuation { continuation in
            once.set(continuation)
            let thread = Thread { once.resume(with: Result { try work(heartbeat) }) }
            thread.name = "touchdeck.files"
            thread.qualityOfService = .userInitiated
            thread.start()
            watch(heartbeat, limit: limit, once: once)
        }
    }

    /// Fails the wait once `limit` seconds pass after the last beat (the start counts as one).
    private static func watch<T>(_ heartbeat: Heartbeat, limit: Double, once: ResumeOnce<T>) {
        let deadline = heartbeat.lastBeat + limit
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            guard !once.isDone else { return }
            if DispatchTime.now() < heartbeat.lastBeat + limit { return watch(heartbeat, limit: limit, once: once) }
            once.resume(with: .failure(TimedOut()))
        }
    }
}

/// A continuation resumed by whichever comes first.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    private var resumed = false

    func set(_ continuation: CheckedContinuation<T, any Error>) { lock.withLock { self.continuation = continuation } }

    var isDone: Bool { lock.withLock { resumed } }

    func resume(with result: Result<T, any Error>) {
        let waiting: CheckedContinuation<T, any Error>? = lock.withLock {
            defer { continuation = nil }
            resumed = true
            return continuation
        }
        waiting?.resume(with: result)
    }
}

extension FileWork {
    /// `run`, its outcome as a value.
    static func result<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        do { return .success(try await run(work)) } catch { return .failure(error) }
    }

    /// `run` of work that beats its heartbeat, its outcome as a value.
    static func result<T: Sendable>(_ work: @escaping @Sendable (Heartbeat) throws -> T) async -> Result<T, any Error> {
        do { return .success(try await run(work)) } catch { return .failure(error) }
    }
}
