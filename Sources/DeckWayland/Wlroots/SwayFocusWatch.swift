import DeckDesktop
import Foundation
import Glibc
import Synchronization

extension FocusWatch {
    /// The focused app on sway, from its IPC's window events (`SwayFocusWatch`); unavailable without sway's socket.
    public static func sway(environment: [String: String] = ProcessInfo.processInfo.environment) -> FocusWatch {
        guard let path = SwayFocus.socketPath(environment: environment) else {
            return .unavailable(SwayFocusWatch.noSway)
        }
        return FocusWatch { SwayFocusWatch.follow(socket: path) }
    }
}

/// Follows which app has the focus on sway (DESIGN.md#deck): one connection to sway's IPC socket that subscribes to
/// `window` events (the i3 IPC protocol's SUBSCRIBE, type 2; events carry the high bit, `window` is 3), read on a
/// thread of its own. The focused node's app id (or an Xwayland window's WM_CLASS instance and class, as
/// `SwayFocus.focused` reads them) comes first from `get_tree`, then from each `focus` event; a focused window that
/// closes leaves no app until the next focus. Ending the stream shuts the socket down, which ends the read.
enum SwayFocusWatch {
    static let noSway =
        "this Wayland desktop tells no app which window has the focus (KDE's KWin only to a script loaded into it; "
        + "the host follows sway through its IPC socket, found by $SWAYSOCK, and does not speak wlroots' "
        + "foreign-toplevel protocol yet)"
    private static let subscribe: UInt32 = 2
    private static let getTree: UInt32 = 4
    private static let windowEvent: UInt32 = 0x8000_0003

    static func follow(socket path: String) -> AsyncStream<[String]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .bufferingNewest(4))
        guard let connection = SwayConnection(path: path) else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in connection.shutDown() }
        let thread = Thread {
            read(connection) { continuation.yield($0) }
            connection.close()
            continuation.finish()
        }
        thread.name = "touchdeck.sway-focus"
        thread.start()
        return stream
    }

    /// The focused app at start, then every change, until the connection ends.
    private static func read(_ connection: SwayConnection, report: ([String]) -> Void) {
        var reported: [String]?
        func tell(_ names: [String]) {
            guard names != reported else { return }
            reported = names
            report(names)
        }
        guard connection.send(subscribe, #"["window"]"#), connection.receive()?.type == subscribe,
            connection.send(getTree, "")
        else { return }
        while let (type, payload) = connection.receive() {
            let json = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
            switch type {
            case getTree: tell(json.map(SwayFocus.focused(in:)) ?? [])
            case windowEvent:
                guard let json, let container = json["container"] as? [String: Any] else { continue }
                switch json["change"] as? String {
                case "focus": tell(SwayFocus.focused(in: container.merging(["focused": true]) { _, new in new }))
                case "close" where container["focused"] as? Bool == true: tell([])
                default: continue
                }
            default: continue
            }
        }
    }
}

/// One blocking connection to sway's IPC socket. `@unchecked Sendable`: the descriptor is behind a mutex; reads and
/// writes happen on the watch's thread only, and `shutDown` (from any thread) only wakes a blocked read.
private final class SwayConnection: @unchecked Sendable {
    private let fd: Mutex<Int32>

    init?(path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            return nil
        }
        self.fd = Mutex(fd)
    }

    private var descriptor: Int32 { fd.withLock { $0 } }

    /// Sends one message: "i3-ipc", the payload's length and the type in the host's byte order, the payload.
    func send(_ type: UInt32, _ payload: String) -> Bool {
        var message = Data("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.utf8.count)) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { message.append(contentsOf: $0) }
        message.append(Data(payload.utf8))
        let fd = descriptor
        return message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            == message.count
    }

    /// The next message (a reply or an event); nil when the connection ended or sent something else.
    func receive() -> (type: UInt32, payload: Data)? {
        guard let header = receive(count: 14), header.prefix(6) == Data("i3-ipc".utf8) else { return nil }
        let length = header.subdata(in: 6..<10).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let type = header.subdata(in: 10..<14).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard length <= 64 << 20, let payload = receive(count: Int(length)) else { return nil }
        return (type, payload)
    }

    private func receive(count: Int) -> Data? {
        var data = Data(count: count)
        var at = 0
        let fd = descriptor
        while at < count {
            let read = data.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + at, count - at, 0) }
            guard read > 0 else { return nil }
            at += read
        }
        return data
    }

    /// Wakes a blocked read (the stream's consumer left); the watch's thread then closes the socket.
    func shutDown() {
        fd.withLock { if $0 >= 0 { _ = Glibc.shutdown($0, Int32(SHUT_RDWR)) } }
    }

    func close() {
        fd.withLock {
            Glibc.close($0)
            $0 = -1
        }
    }
}
