import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Crash-safe file replacement: a reader sees either the old bytes or the new bytes, never a mix.
enum AtomicFile {
    /// Writes `data` to `url` through a temp file in the same directory: write, fsync, rename, fsync the directory.
    static func write(_ data: Data, to url: URL, mode: mode_t) throws {
        let directory = url.deletingLastPathComponent().path
        let temp = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ConfigError.system("create \(temp)", errno) }
        do {
            try writeAll(data, to: fd)
            // fchmod because the umask may have narrowed or widened what open() was asked for.
            guard fchmod(fd, mode) == 0, fsync(fd) == 0 else { throw ConfigError.system("sync \(temp)", errno) }
            close(fd)
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        guard rename(temp, url.path) == 0 else {
            let code = errno
            unlink(temp)
            throw ConfigError.system("rename to \(url.path)", code)
        }
        // The rename itself lives in the directory; without this a power cut may forget it.
        let dirFd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFd >= 0 {
            fsync(dirFd)
            close(dirFd)
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw ConfigError.system("write", errno) }
                offset += n
            }
        }
    }

    /// Removes temp files a killed writer left behind.
    static func removeLeftovers(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.contains(".tmp-") {
            unlink(directory.path + "/" + name)
        }
    }
}
