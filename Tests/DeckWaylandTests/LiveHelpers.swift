import DeckKit
import DeckScreen
@testable import DeckWayland
import Foundation

/// Runs blocking work on a thread of its own (never a cooperative-pool thread: two cores only).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

func DeckKitRect(_ monitor: Monitor) -> Rect {
    Rect(
        x: Double(monitor.frame.x), y: Double(monitor.frame.y), width: Double(monitor.frame.width),
        height: Double(monitor.frame.height))
}

/// One copied frame, for checks after the handler returned.
struct CopiedFrame: Sendable {
    var width: Int, height: Int, stride: Int
    var format: PixelFormat
    var pixels: [UInt8]

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let at = y * stride + x * 4
        return Array(pixels[at..<at + 3])
    }
}

/// Copies every frame a capture hands over and counts them.
final class FrameRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [CopiedFrame] = []

    var count: Int { condition.withLock { frames.count } }

    var handlers: CaptureHandlers {
        CaptureHandlers(
            frame: { frame in
                let bytes = frame.stride * (frame.height - 1) + frame.width * 4
                let copy = CopiedFrame(
                    width: frame.width, height: frame.height, stride: frame.stride, format: frame.format,
                    pixels: [UInt8](UnsafeRawBufferPointer(start: frame.pixels, count: bytes)))
                self.condition.withLock {
                    self.frames.append(copy)
                    self.condition.broadcast()
                }
            }, ended: { _ in })
    }

    /// The frame after the first `after` ones, when it comes within `seconds`.
    func waitForFrame(seconds: Double, after: Int = 0) -> CopiedFrame? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while frames.count <= after && condition.wait(until: deadline) {}
        return frames.count > after ? frames[after] : nil
    }
}

/// Tests/wayland/gtk_pattern.py under the system Python; stopped by its PID.
final class GTKClient: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    static func start() throws -> GTKClient {
        let client = GTKClient()
        try client.launch()
        return client
    }

    private func launch() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("wayland/gtk_pattern.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["GDK_BACKEND"] = "wayland"
        process.environment = environment
        process.standardOutput = output
        try process.run()
        _ = try events(until: { $0.event == "ready" })
    }

    /// The events printed until one matches `last` (included); throws when the client stops printing, and stops
    /// the client after 20 s, so a lost event fails the test instead of hanging it.
    func events(until last: (ClientEvent) -> Bool) throws -> [ClientEvent] {
        var seen: [ClientEvent] = []
        let waiting = LockedFlag()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { if !waiting.isSet { kill(pid, SIGTERM) } }
        defer { _ = waiting.set() }
        while true {
            while let newline = buffer.firstIndex(of: 0x0a) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                let event = ClientEvent(object)
                seen.append(event)
                if last(event) { return seen }
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        throw GTKClientError.noSuchEvent(seen.map { "\($0)" }.joined(separator: "\n"))
    }

    /// Ends the client by its PID and waits (5 s at most) until Foundation has seen it go. Polls instead of
    /// `waitUntilExit`, which spins a run loop that never finished on a test's thread here.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }
}

enum GTKClientError: Error { case noSuchEvent(String) }

/// One line the GTK client printed.
struct ClientEvent: Sendable, CustomStringConvertible {
    var event: String
    var button: Int?, x: Int?, y: Int?, keyval: Int?

    init(_ object: [String: Any]) {
        event = object["event"] as? String ?? ""
        button = object["button"] as? Int
        x = object["x"] as? Int
        y = object["y"] as? Int
        keyval = object["keyval"] as? Int
    }

    var description: String { "\(event) button \(button ?? -1) at \(x ?? -1),\(y ?? -1) keyval \(keyval ?? -1)" }
}
