import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon's control socket lives: in the config dir (mode 0700, see `ConfigStore`), so
/// `--config-dir` finds it; when that path is too long for a Unix socket, in a private directory
/// `touchdeck-<uid>` under `$XDG_RUNTIME_DIR` (else /tmp), named after the config dir. In /tmp anyone could
/// create that directory first and put their own socket in it (feeding the CLI a fake PIN and address), so the
/// daemon creates it 0700 and both sides check its owner and mode before trusting it (`PrivateDirectory`).
public enum ControlSocket {
    public static func path(configDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        guard let folder = privateDirectory(configDirectory: configDirectory, environment: environment) else {
            return configDirectory.appendingPathComponent("control.sock").path
        }
        return "\(folder)/\(fnv1a(configDirectory.standardizedFileURL.path)).sock"
    }

    /// The private directory for sockets whose config-dir path is too long; nil when the socket is in the
    /// config dir.
    public static func privateDirectory(
        configDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard configDirectory.appendingPathComponent("control.sock").path.utf8.count >= 100 else { return nil }
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return "\(base)/touchdeck-\(getuid())"
    }

    /// The uid of the process at the other end of a connected Unix socket; nil when it cannot be read.
    static func peerUID(_ fd: Int32) -> UInt32? {
        // `struct ucred` {pid, uid, gid} needs _GNU_SOURCE, which Swift's Glibc lacks; read its three 32-bit fields.
        var credentials: [UInt32] = [0, 0, 0]
        var size = socklen_t(12)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, size == 12 else { return nil }
        return credentials[1]
    }

    private static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Fills a `sockaddr_un` for `path`.
    static func address(_ path: String) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    /// Connects to the socket at `path`; -1 when nobody listens.
    static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var addr = address(path)
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// Reads until a newline or end of stream (at most 4 MiB).
    static func readLine(_ fd: Int32) -> Data? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count < 4 << 20 {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if buffer[n - 1] == UInt8(ascii: "\n") { break }
        }
        return data.isEmpty ? nil : data
    }

    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
