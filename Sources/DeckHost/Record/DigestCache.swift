import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The SHA-256 of each recording, remembered by name, size and modification time, so fetching a file in
/// 256 KiB chunks reads it whole once rather than once per chunk. A file still being recorded changes size and
/// time with each fragment, so its digest is computed again (it is a different file then).
final class DigestCache: @unchecked Sendable {
    /// What identifies one version of a file.
    struct Stamp: Hashable {
        let name: String
        let size: Int
        let modifiedSeconds: Int
        let modifiedNanos: Int

        /// Size and time of the open file (fstat: the same file the digest is read from).
        init(of handle: FileHandle, name: String) throws {
            var info = stat()
            guard fstat(handle.fileDescriptor, &info) == 0 else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: name])
            }
            self.init(
                name: name, size: Int(info.st_size), modifiedSeconds: Int(info.st_mtim.tv_sec),
                modifiedNanos: Int(info.st_mtim.tv_nsec))
        }

        init(name: String, size: Int, modifiedSeconds: Int, modifiedNanos: Int) {
            self.name = name
            self.size = size
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanos = modifiedNanos
        }
    }

    /// Enough for every file a few devices fetch at once; the oldest entry goes first.
    static let capacity = 16

    // Guarded by `lock`: fetches from several devices read it from detached tasks.
    private let lock = NSLock()
    private var entries: [Stamp: String] = [:]
    private var order: [Stamp] = []
    private var computed = 0

    /// The digest for `stamp`, computed by `compute` only when this version of the file has none yet.
    func digest(for stamp: Stamp, compute: () throws -> String) throws -> String {
        if let known = lock.withLock({ entries[stamp] }) { return known }
        let digest = try compute()
        lock.withLock {
            computed += 1
            // An older version of the same file is no longer wanted.
            order.removeAll { old in
                guard old.name == stamp.name else { return false }
                entries[old] = nil
                return true
            }
            entries[stamp] = digest
            order.append(stamp)
            if order.count > Self.capacity { entries[order.removeFirst()] = nil }
        }
        return digest
    }

    /// How many digests were computed (not taken from the cache) so far; tests read it.
    var computedCount: Int { lock.withLock { computed } }
}
