import Foundation
import Glibc

/// Requests with a payload over sway's IPC socket (the i3 IPC protocol: "i3-ipc", a 32-bit length and type in the
/// host's byte order, then JSON), one connection per request, two seconds at most unless asked for less. Blocking:
/// callers run it on a queue of their own. (`SwayFocus` asks `get_tree` through it with one second.)
struct SwayIPC: Sendable {
    static let runCommand: UInt32 = 0
    static let getWorkspaces: UInt32 = 1
    static let getOutputs: UInt32 = 3

    let path: String

    /// Sway's socket for this session (`$SWAYSOCK`, else the one of a sway running in the runtime folder).
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> SwayIPC? {
        SwayFocus.socketPath(environment: environment).map(SwayIPC.init(path:))
    }

    /// The reply's JSON, or nil when sway did not answer.
    func call(_ type: UInt32, _ payload: String = "") -> Any? {
        guard let reply = exchange(type, Data(payload.utf8)) else { return nil }
        return try? JSONSerialization.jsonObject(with: reply)
    }

    /// Runs sway commands (`;`-separated); nil when every one succeeded, else sway's first error.
    func run(_ commands: String) -> String? {
        guard let results = call(Self.runCommand, commands) as? [[String: Any]] else { return "sway did not answer" }
        for result in results where result["success"] as? Bool != true {
            return result["error"] as? String ?? "sway refused \(commands)"
        }
        return nil
    }

    /// The outputs sway lists (`get_outputs`), enabled or not.
    func outputs() -> [SwayOutput]? {
        guard let list = call(Self.getOutputs) as? [[String: Any]] else { return nil }
        return list.compactMap(SwayOutput.init(json:))
    }

    /// The workspaces' names on output `name`.
    func workspaces(on name: String) -> [String] {
        let list = call(Self.getWorkspaces) as? [[String: Any]] ?? []
        return list.filter { $0["output"] as? String == name }.compactMap { $0["name"] as? String }
    }

    /// One request on a new connection and its reply's payload; nil when sway did not answer within `seconds`.
    func exchange(_ type: UInt32, _ payload: Data, seconds: Int = 2) -> Data? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
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
        withUnsafeBytes(of: UInt32(payload.count)) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { message.append(contentsOf: $0) }
        message.append(payload)
        guard message.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == message.count,
            let header = receive(fd, count: 14), header.prefix(6) == Data("i3-ipc".utf8)
        else { return nil }
        let length = header.subdata(in: 6..<10).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard length <= 64 << 20 else { return nil }
        return receive(fd, count: Int(length))
    }

    private func receive(_ fd: Int32, count: Int) -> Data? {
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

/// One output as `get_outputs` describes it.
struct SwayOutput: Equatable, Sendable {
    var name: String
    var active: Bool
    /// Its place and size in layout pixels.
    var rect: (x: Int, y: Int, width: Int, height: Int)
    var scale: Double

    init(name: String, active: Bool, rect: (x: Int, y: Int, width: Int, height: Int), scale: Double = 1) {
        self.name = name
        self.active = active
        self.rect = rect
        self.scale = scale
    }

    init?(json: [String: Any]) {
        guard let name = json["name"] as? String else { return nil }
        let rect = json["rect"] as? [String: Any] ?? [:]
        let value = { (key: String) in (rect[key] as? NSNumber)?.intValue ?? 0 }
        self.init(
            name: name, active: json["active"] as? Bool ?? false,
            rect: (value("x"), value("y"), value("width"), value("height")),
            scale: (json["scale"] as? NSNumber)?.doubleValue ?? 1)
    }

    static func == (a: SwayOutput, b: SwayOutput) -> Bool {
        a.name == b.name && a.active == b.active && a.rect == b.rect && a.scale == b.scale
    }
}
