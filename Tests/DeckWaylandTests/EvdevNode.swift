import CDeckShim
import Foundation
import Glibc
import Testing

@testable import DeckWayland

/// One /dev/input/event* node read the way the compositor's libinput reads it: its name, the capabilities the
/// kernel reports, and the events it delivers (decoded like `UinputPipes`; only the time differs).
final class EvdevNode {
    let path: String
    let fd: Int32

    private init?(path: String) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// The event nodes there are now.
    static func nodes() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input")) ?? []
        return Set(names.filter { $0.hasPrefix("event") }.map { "/dev/input/" + $0 })
    }

    /// The node of the live device named `name`, waiting up to `seconds` for devtmpfs to make it. (The node of a
    /// destroyed device may linger a moment, but opening it fails; its number may be reused at once.)
    static func find(named name: String, seconds: Double = 5) -> EvdevNode? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            for path in nodes().sorted() {
                if let node = EvdevNode(path: path), node.name == name { return node }
            }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    var name: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard deck_evdev_name(fd, &buffer, UInt32(buffer.count)) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The codes the kernel says the device has for event `type` (0: the event types themselves).
    func codes(_ type: Int32) -> [Int] {
        var bits = [UInt8](repeating: 0, count: 96)  // KEY_MAX + 1 = 768 bits
        let length = deck_evdev_bits(fd, UInt32(type), &bits, UInt32(bits.count))
        guard length > 0 else { return [] }
        return (0..<(Int(length) * 8)).filter { bits[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    func range(_ axis: Int32) -> ClosedRange<Int32>? {
        var (minimum, maximum) = (Int32(0), Int32(0))
        guard deck_evdev_abs_range(fd, UInt32(axis), &minimum, &maximum) == 0 else { return nil }
        return minimum...maximum
    }

    /// The events that arrive within `seconds`, stopping early once `count` have.
    func read(count: Int, seconds: Double = 2) -> [UinputEvent] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 24 * 64)
        let deadline = Date().addingTimeInterval(seconds)
        while bytes.count < count * 24, Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let got = Glibc.read(fd, &chunk, chunk.count)
            if got > 0 { bytes += chunk.prefix(got) } else if got == 0 || errno != EAGAIN { break }
        }
        return UinputPipes.decode(bytes)
    }

    /// Whether the device is gone (a removed device's node answers ENODEV).
    var isGone: Bool {
        var chunk = [UInt8](repeating: 0, count: 24 * 64)
        while Glibc.read(fd, &chunk, chunk.count) > 0 {}
        return errno == ENODEV
    }
}

extension EvdevNode {
    /// What udev's input_id builtin says the device is (ID_INPUT_MOUSE=1…), the tags libinput goes by: asked
    /// of `udevadm test-builtin` ($TOUCHDECK_UDEVADM, which scripts/with-uinput-vm fetches, else the system's).
    func udevClassification() throws -> Set<String> {
        let candidates = [ProcessInfo.processInfo.environment["TOUCHDECK_UDEVADM"], "/bin/udevadm", "/usr/bin/udevadm"]
        let udevadm = try #require(
            candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "no udevadm (scripts/with-uinput-vm fetches one)")
        let command = "'\(udevadm)' test-builtin input_id '/sys/class/input/\((path as NSString).lastPathComponent)'"
        // popen, not Foundation's Process, which hung in the guest (its run loop logged it could not make its wake-up
        // socket pair).
        let stream = try #require(popen(command + " 2>/dev/null", "r"), "popen failed")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = fread(&chunk, 1, chunk.count, stream), count > 0 { bytes += chunk.prefix(count) }
        #expect(pclose(stream) == 0, "udevadm failed")
        let text = String(decoding: bytes, as: UTF8.self)
        return Set(text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("ID_INPUT") })
    }
}
