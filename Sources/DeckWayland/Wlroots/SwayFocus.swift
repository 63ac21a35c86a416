import Dispatch
import Foundation
import Glibc

/// The focused window's app id on sway, for the paste chord (a terminal pastes with Ctrl+Shift+V): one `get_tree`
/// over sway's IPC socket (the i3 IPC protocol: "i3-ipc", a 32-bit length and type in the host's byte order, then
/// JSON), asked on a queue of its own with a one-second limit, never on the caller's thread. Empty on another
/// wlroots compositor, without the socket, or when sway does not answer in time.
enum SwayFocus {
    private static let queue = DispatchQueue(label: "touchdeck.sway-ipc")
    private static let getTree: UInt32 = 4

    static func focusedAppID(environment: [String: String] = ProcessInfo.processInfo.environment) async -> [String] {
        await withCheckedContinuation { done in
            queue.async { done.resume(returning: ask(environment: environment)) }
        }
    }

    private static func ask(environment: [String: String]) -> [String] {
        guard let path = socketPath(environment: environment), let reply = request(getTree, at: path),
            let tree = try? JSONSerialization.jsonObject(with: reply) as? [String: Any]
        else { return [] }
        return focused(in: tree)
    }

    /// `$SWAYSOCK`, else the socket sway makes in the runtime folder (`sway-ipc.UID.PID.sock`) of a sway that runs.
    static func socketPath(environment: [String: String]) -> String? {
        if let path = environment["SWAYSOCK"], !path.isEmpty { return path }
        var folders = [environment["XDG_RUNTIME_DIR"]].compactMap { $0 }
        if let display = environment["WAYLAND_DISPLAY"], display.hasPrefix("/") {
            folders.append((display as NSString).deletingLastPathComponent)
        }
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasPrefix("sway-ipc.") && name.hasSuffix(".sock") {
                let parts = name.split(separator: ".")
                guard parts.count == 4, let pid = pid_t(parts[2]) else { continue }
                if kill(pid, 0) == 0 || errno == EPERM { return folder + "/" + name }
            }
        }
        return nil
    }

    /// The focused node's app id (a Wayland client) or WM_CLASS instance and class (an Xwayland one).
    static func focused(in node: [String: Any]) -> [String] {
        if node["focused"] as? Bool == true {
            if let app = node["app_id"] as? String, !app.isEmpty { return [app] }
            let properties = node["window_properties"] as? [String: Any] ?? [:]
            return ["instance", "class"].compactMap { properties[$0] as? String }
        }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key] as? [[String: Any]] ?? [] {
                let found = focused(in: child)
                if !found.isEmpty { return found }
            }
        }
        return []
    }

    /// One request on a new connection, and its reply's payload.
    private static func request(_ type: UInt32, at path: String) -> Data? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        var message = Data("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(0)) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { message.append(contentsOf: $0) }
        guard message.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == message.count,
            let header = receive(fd, count: 14), header.prefix(6) == Data("i3-ipc".utf8)
        else { return nil }
        let length = header.subdata(in: 6..<10).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard length <= 64 << 20 else { return nil }
        return receive(fd, count: Int(length))
    }

    private static func receive(_ fd: Int32, count: Int) -> Data? {
        var data = Data(count: count)
        var at = 0
        while at < count {
            let read = data.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + at, count - at, 0) }
            guard read > 0 else { return nil }
            at += read
        }
        return data
    }
}
