import DeckDesktop
import Foundation
import Glibc
import Testing

@testable import DeckWayland

/// `SwayFocusWatch` against a stand-in for sway's IPC socket (no compositor): it subscribes to window events, takes
/// the focused app from `get_tree`, then from each focus event (a Wayland app id, an Xwayland class), drops it when
/// the focused window closes, ignores other changes, and lets go of the socket when the stream is dropped. Without a
/// sway socket the watch is unavailable and says why. The real sway is `Tests/wayland/test_sway_focus_live.py`.
@Suite struct SwayFocusWatchTests {
    @Test func focusEventsBecomeTheFocusedAppsNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sway-ipc.sock").path
        let sway = try FakeSway(path: path)
        let watch = FocusWatch.sway(environment: ["SWAYSOCK": path])
        #expect(watch.unavailable == nil)
        var seen: [[String]] = []
        for await names in watch.follow() {
            seen.append(names)
            if seen.count == 4 { break }
        }
        #expect(seen == [["foot"], ["firefox"], [], ["xterm", "XTerm"]])
        #expect(sway.requests() == [2, 4], "subscribe, then get_tree")
        #expect(sway.subscribed() == #"["window"]"#)
        #expect(sway.waitForClose(), "the watch let go of the socket")
    }

    @Test func withoutASwaySocketTheWatchIsUnavailableAndSaysWhy() {
        let watch = FocusWatch.sway(environment: [:])
        #expect(watch.unavailable?.contains("KDE's KWin only to a script loaded into it") == true)
    }
}

/// A one-connection stand-in for sway's IPC: answers SUBSCRIBE and GET_TREE, then sends four window events (focus
/// of a Wayland app, a title change, the focused window closing, focus of an Xwayland window), the first of them cut
/// in two writes, as a socket may deliver it.
private final class FakeSway: @unchecked Sendable {
    private let server: Int32
    private let lock = NSLock()
    private var types: [UInt32] = []
    private var subscription = ""
    private let closed = DispatchSemaphore(value: 0)

    init(path: String) throws {
        server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(server, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread { self.serve() }.start()
    }

    func requests() -> [UInt32] { lock.withLock { types } }
    func subscribed() -> String { lock.withLock { subscription } }
    func waitForClose() -> Bool { closed.wait(timeout: .now() + 10) == .success }

    private func serve() {
        let client = accept(server, nil, nil)
        defer {
            close(client)
            close(server)
        }
        guard let (type, payload) = read(client), type == 2 else { return }
        lock.withLock {
            types.append(type)
            subscription = payload
        }
        write(client, type: 2, #"{"success":true}"#)
        guard let (tree, _) = read(client), tree == 4 else { return }
        lock.withLock { types.append(tree) }
        write(client, type: 4, #"{"nodes":[{"nodes":[{"focused":true,"app_id":"foot"}]}]}"#)
        let event: UInt32 = 0x8000_0003
        let focus = message(type: event, #"{"change":"focus","container":{"focused":true,"app_id":"firefox"}}"#)
        _ = focus.prefix(9).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
        _ = focus.dropFirst(9).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
        write(client, type: event, #"{"change":"title","container":{"focused":true,"app_id":"firefox"}}"#)
        write(client, type: event, #"{"change":"close","container":{"focused":true,"app_id":"firefox"}}"#)
        write(
            client, type: event,
            #"{"change":"focus","container":{"focused":true,"app_id":null,"#
                + #""window_properties":{"instance":"xterm","class":"XTerm"}}}"#)
        var byte: UInt8 = 0
        while recv(client, &byte, 1, 0) > 0 {}  // until the watch shuts the socket down
        closed.signal()
    }

    private func read(_ fd: Int32) -> (UInt32, String)? {
        var header = [UInt8](repeating: 0, count: 14)
        guard recv(fd, &header, 14, Int32(MSG_WAITALL)) == 14 else { return nil }
        let length = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 6, as: UInt32.self) }
        let type = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 10, as: UInt32.self) }
        var payload = [UInt8](repeating: 0, count: Int(length))
        if length > 0, recv(fd, &payload, Int(length), Int32(MSG_WAITALL)) != Int(length) { return nil }
        return (type, String(decoding: payload, as: UTF8.self))
    }

    private func message(type: UInt32, _ json: String) -> Data {
        var data = Data("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(json.utf8.count)) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { data.append(contentsOf: $0) }
        data.append(Data(json.utf8))
        return data
    }

    private func write(_ fd: Int32, type: UInt32, _ json: String) {
        let data = message(type: type, json)
        _ = data.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    }
}
