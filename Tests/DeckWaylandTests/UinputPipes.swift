import Foundation
import Glibc

@testable import DeckWayland

/// uinput devices that are pipes: what the back-end writes is read back from their other ends and decoded as
/// 24-byte `struct input_event` records (16 bytes of time, then type, code and value, little-endian).
///
/// `@unchecked Sendable`: every field is read and written under `lock`.
final class UinputPipes: @unchecked Sendable {
    private let lock = NSLock()
    private var pointerEnds: [(width: Int32, height: Int32, fd: Int32)] = []
    private var keyboardEnds: [Int32] = []
    /// Hands out a read-only fd as the next keyboard, so that writing to it fails (EBADF).
    var brokenKeyboards = 0

    deinit { for fd in pointerEnds.map(\.fd) + keyboardEnds { close(fd) } }

    var devices: UinputDevices {
        UinputDevices(
            makePointer: { width, height in
                let (read, write) = Self.pipe()
                self.lock.withLock { self.pointerEnds.append((width, height, read)) }
                return write
            },
            makeKeyboard: {
                let broken = self.lock.withLock {
                    defer { self.brokenKeyboards = max(0, self.brokenKeyboards - 1) }
                    return self.brokenKeyboards > 0
                }
                if broken { return open("/dev/null", O_RDONLY | O_CLOEXEC) }
                let (read, write) = Self.pipe()
                self.lock.withLock { self.keyboardEnds.append(read) }
                return write
            })
    }

    /// The sizes the pointers were made with, in order.
    var pointerSizes: [String] { lock.withLock { pointerEnds.map { "\($0.width)x\($0.height)" } } }
    var keyboardCount: Int { lock.withLock { keyboardEnds.count } }

    /// What the newest pointer got since the last call.
    func pointerEvents() -> [UinputEvent] { Self.drain(lock.withLock { pointerEnds.last?.fd }) }
    /// What the newest keyboard got since the last call.
    func keyboardEvents() -> [UinputEvent] { Self.drain(lock.withLock { keyboardEnds.last }) }

    /// Whether the pointer made before the newest was closed (its pipe reads end-of-file after what it got).
    func olderPointerClosed() -> Bool {
        guard let fd = lock.withLock({ pointerEnds.dropLast().last?.fd }) else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(fd, &chunk, chunk.count), count > 0 {}
        return read(fd, &chunk, 1) == 0
    }

    private static func pipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec, as the real device is opened: other suites spawn processes meanwhile, and a child that
        // inherited the write end would keep the pipe open after the back-end closed its device.
        // (A stream socket pair: Glibc's module has no pipe2, and setting FD_CLOEXEC afterwards leaves a window.)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        precondition(socketpair(AF_UNIX, type, 0, &ends) == 0, "socketpair failed")
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)  // the reader drains what is there and stops
        return (ends[0], ends[1])
    }

    private static func drain(_ fd: Int32?) -> [UinputEvent] {
        guard let fd else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(fd, &chunk, chunk.count), count > 0 { bytes += chunk.prefix(count) }
        return decode(bytes)
    }

    /// Whole 24-byte records; a trailing partial one would be a bug, reported as an impossible event.
    static func decode(_ bytes: [UInt8]) -> [UinputEvent] {
        stride(from: 0, to: bytes.count, by: 24).map { start in
            guard start + 24 <= bytes.count else { return UinputEvent(-1, -1, -1) }
            let field = { (offset: Int, size: Int) in
                (0..<size).reduce(UInt32(0)) { $0 | UInt32(bytes[start + offset + $1]) << (8 * $1) }
            }
            return UinputEvent(Int32(field(16, 2)), Int32(field(18, 2)), Int32(bitPattern: field(20, 4)))
        }
    }
}
