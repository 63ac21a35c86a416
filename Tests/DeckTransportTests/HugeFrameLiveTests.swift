import Foundation
import Testing

@testable import DeckTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A raw WebSocket peer on a plain loopback socket, for frames no well-behaved client library will send.
private final class RawPeer {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard fd >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

    /// At least `count` bytes from the server, or fewer if it closes the socket or goes quiet for 10 s.
    func read(atLeast count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < count {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    func upgrade() -> String {
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        send(Array(request.utf8))
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = Glibc.read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
    }

    /// A masked client frame header (mask key zero, so the payload goes as is).
    static func header(opcode: UInt8, final: Bool, length: UInt64) -> [UInt8] {
        let first = (final ? 0x80 : 0) | opcode
        let lengthBytes = withUnsafeBytes(of: length.bigEndian) { Array($0) }
        return [first, 0x80 | 127] + lengthBytes + [0, 0, 0, 0]
    }
}

@Suite struct HugeFrameLiveTests {
    /// The exact frames that trapped the host before any handshake: a 10-byte text fragment, then a
    /// continuation frame whose header claims 2^63 − 1 bytes. The host must close with 1009 and live on.
    @Test func continuationClaimingTwoToTheSixtyThreeBytesIsRefused() async throws {
        let server = try TestServer()
        let peer = try RawPeer(port: server.port)
        #expect(peer.upgrade().hasPrefix("HTTP/1.1 101"))
        peer.send(RawPeer.header(opcode: 1, final: false, length: 10) + Array("0123456789".utf8))
        peer.send(RawPeer.header(opcode: 0, final: true, length: UInt64(Int.max)) + Array("abcd".utf8))
        let answer = peer.read(atLeast: 4)
        // A close frame (opcode 8) whose status is 1009, message too big.
        #expect(answer.count >= 4 && answer[0] & 0x0F == 8 && answer[2...3].elementsEqual([0x03, 0xF1]))
        let echo = try await runClient(["echo", server.plainURL, "still here"])
        #expect(echo["reply"] as? String == "still here")
    }

    /// A frame length with the top bit set is against RFC 6455; whatever lws makes of it (it does not
    /// fit in Int), the host lives on.
    @Test func frameLengthWithTheTopBitSetDoesNotTrap() async throws {
        let server = try TestServer()
        let peer = try RawPeer(port: server.port)
        #expect(peer.upgrade().hasPrefix("HTTP/1.1 101"))
        peer.send(RawPeer.header(opcode: 1, final: true, length: UInt64.max) + Array("abcd".utf8))
        _ = peer.read(atLeast: 4)
        let echo = try await runClient(["echo", server.plainURL, "still here"])
        #expect(echo["reply"] as? String == "still here")
    }
}
