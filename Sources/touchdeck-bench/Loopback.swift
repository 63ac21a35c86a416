import CAllocCount
import DeckKit
import Foundation

/// A socket on 127.0.0.1 read to its end by a thread of its own into one reused buffer, so the reading side
/// costs the same in every run that uses it: a WebSocket peer of the bench's server, or the far end of the
/// baseline's plain socket.
final class LoopbackReader: @unchecked Sendable {  // `fd` is set once in init; `received` is only read at the end
    let fd: Int32
    private let done = DispatchSemaphore(value: 0)
    private(set) var received = 0

    /// Reads `fd` (already connected) until the peer closes it.
    init(reading fd: Int32) {
        self.fd = fd
        Thread { [self] in drain() }.start()
    }

    /// Connects to `port` and opens a WebSocket on `path` (no Origin: not a browser); nil when refused.
    static func webSocket(port: Int, path: String) -> LoopbackReader? {
        let fd = Loopback.connect(port: port)
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard Loopback.writeAll(fd, Data(request.utf8)) else { return nil }
        var answer = Data()
        var byte: UInt8 = 0
        while !answer.suffix(4).elementsEqual("\r\n\r\n".utf8), read(fd, &byte, 1) == 1 { answer.append(byte) }
        guard String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 101") else { return nil }
        return LoopbackReader(reading: fd)
    }

    /// Waits until the peer has closed the socket.
    func waitForEnd() {
        done.wait()
        close(fd)
    }

    private func drain() {
        let size = 256 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = recv(fd, buffer, size, 0)
            if count <= 0 { break }
            received += count
        }
        done.signal()
    }
}

/// Plain loopback TCP: a connected pair for the baseline, and the connect the WebSocket peer uses.
enum Loopback {
    /// A connected pair (writer, reader) on 127.0.0.1.
    static func pair() -> (writer: Int32, reader: Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                precondition(bind(listener, raw, length) == 0 && listen(listener, 1) == 0, "loopback listen")
                precondition(getsockname(listener, raw, &length) == 0, "loopback getsockname")
            }
        }
        let writer = connect(port: Int(UInt16(bigEndian: address.sin_port)))
        let reader = accept(listener, nil, nil)
        close(listener)
        return (writer, reader)
    }

    static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(result == 0, "loopback connect to \(port)")
        return fd
    }

    /// Writes every byte (blocking); false when the socket failed.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { writeAll(fd, $0) }
    }
}

/// What the process spent: CPU time of every thread (getrusage), heap allocations (`CAllocCount`) and
/// copies of message bytes (`WireBuffer.copies`).
struct Spent {
    var cpuSeconds: Double
    var allocations: Double
    var allocatedBytes: Double
    var copies: Double

    static func now() -> Spent {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Spent(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), allocations: Double(touchdeck_alloc_calls()),
            allocatedBytes: Double(touchdeck_alloc_bytes()), copies: Double(WireBuffer.copies))
    }

    /// What was spent since `start`, divided over `count` frames.
    static func perFrame(since start: Spent, count: Int) -> Spent {
        let end = now()
        let frames = Double(count)
        return Spent(
            cpuSeconds: (end.cpuSeconds - start.cpuSeconds) / frames,
            allocations: (end.allocations - start.allocations) / frames,
            allocatedBytes: (end.allocatedBytes - start.allocatedBytes) / frames,
            copies: (end.copies - start.copies) / frames)
    }
}
