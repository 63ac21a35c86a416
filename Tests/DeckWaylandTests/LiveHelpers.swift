import DeckDesktop
import DeckKit
import Foundation

@testable import DeckWayland

/// Whether a private headless Mutter from `scripts/with-mutter` is running: never a user's real GNOME session
/// (its bus would answer `MutterDesktop.isAvailable` too).
let privateMutter = ProcessInfo.processInfo.environment["TOUCHDECK_MUTTER_PID"] != nil && MutterDesktop.isAvailable()

/// The sizes of the private Mutter's virtual monitors (`MUTTER_SIZE` of `scripts/with-mutter`).
let mutterMonitorSizes = (ProcessInfo.processInfo.environment["TOUCHDECK_MUTTER_SIZE"] ?? "").split(separator: " ")

/// One 1280×720 monitor: what the single-monitor suites expect.
let privateMutterOneMonitor = privateMutter && mutterMonitorSizes == ["1280x720"]

/// Runs blocking work on a thread of its own (never a cooperative-pool thread: two cores only).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

func deckKitRect(_ monitor: Monitor) -> Rect {
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
    private var endings: [ScreenSourceError] = []

    var count: Int { condition.withLock { frames.count } }
    var ends: Int { condition.withLock { endings.count } }

    /// The first end reported, when it comes within `seconds`.
    func waitForEnd(seconds: Double) -> ScreenSourceError? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while endings.isEmpty && condition.wait(until: deadline) {}
        return endings.first
    }

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
            },
            ended: { error in
                self.condition.withLock {
                    self.endings.append(error)
                    self.condition.broadcast()
                }
            })
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

/// Tests/wayland/gtk_pattern.py under the system Python; its JSON lines are read on a thread of their own into
/// `seen`; stopped by its PID.
final class GTKClient: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let condition = NSCondition()
    private var seen: [ClientEvent] = []
    private var closed = false

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
        Thread { self.read() }.start()
        guard wait(seconds: 20, for: { $0.event == "ready" }) != nil else {
            stop()
            throw GTKClientError.noSuchEvent("the client never said it was ready")
        }
    }

    private func read() {
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0a) {
                let line = Data(buffer[buffer.startIndex..<newline])
                buffer = Data(buffer[(newline + 1)...])
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                condition.withLock {
                    seen.append(ClientEvent(object))
                    condition.broadcast()
                }
            }
        }
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// How many events have come so far (a mark for `events(since:)`).
    var count: Int { condition.withLock { seen.count } }

    /// The events from index `mark` on.
    func events(since mark: Int) -> [ClientEvent] { condition.withLock { Array(seen[mark...]) } }

    /// The index of the first event matching `match`, waiting up to `seconds` for it; nil when none came.
    func wait(seconds: Double, from mark: Int = 0, for match: (ClientEvent) -> Bool) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = seen[mark...].firstIndex(where: match) { return index }
            if closed || !condition.wait(until: deadline) { return nil }
        }
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
    /// Keys: the character GTK made of the key, and the modifier state (GdkModifierType) when it came.
    var text: String?, state: Int?
    /// Scrolls: GdkScrollDirection (1 down, 4 smooth) and the smooth delta.
    var direction: Int?, dy: Double?

    init(_ object: [String: Any]) {
        event = object["event"] as? String ?? ""
        button = object["button"] as? Int
        x = object["x"] as? Int
        y = object["y"] as? Int
        keyval = object["keyval"] as? Int
        text = object["text"] as? String
        state = object["state"] as? Int
        direction = object["direction"] as? Int
        dy = (object["dy"] as? NSNumber)?.doubleValue
    }

    var description: String { "\(event) button \(button ?? -1) at \(x ?? -1),\(y ?? -1) keyval \(keyval ?? -1)" }
}
