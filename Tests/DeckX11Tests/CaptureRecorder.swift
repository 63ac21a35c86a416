import CX11
import DeckDesktop
import Foundation

@testable import DeckX11

/// Records what a capture reports, for a test to wait on and read: every frame's size, damage and arrival
/// time, the last frame's pixels (copied during the call), and every end.
final class CaptureRecorder: @unchecked Sendable {
    struct Frame {
        var width: Int
        var height: Int
        var damage: [PixelRect]
        var arrivedAt: UInt64
        /// The pixels, for the first `keptImages` frames only (a run at 30 frames a second would hold gigabytes).
        var image: ScreenImage?
    }

    static let keptImages = 16

    private let condition = NSCondition()
    private var frames: [Frame] = []
    private var endings: [ScreenSourceError] = []
    /// Set by the test when `stop()` has returned; a handler seen after that is a failure.
    private var stopped = false
    private var lateCalls = 0
    /// Called at the start of each frame call (a test may stop the capture from there).
    var onFrame: (@Sendable () -> Void)?

    var handlers: CaptureHandlers {
        CaptureHandlers(frame: { [self] in record($0) }, ended: { [self] in record(ended: $0) })
    }

    private func record(_ frame: CapturedFrame) {
        let bytes = UnsafeRawBufferPointer(start: frame.pixels, count: frame.stride * frame.height)
        let image =
            frameCount < Self.keptImages
            ? ScreenImage(
                width: frame.width, height: frame.height, stride: frame.stride, format: frame.format,
                pixels: Array(bytes)) : nil
        condition.withLock {
            if stopped { lateCalls += 1 }
            frames.append(
                Frame(
                    width: frame.width, height: frame.height, damage: frame.damage, arrivedAt: monotonicNow(),
                    image: image))
            condition.broadcast()
        }
        condition.withLock { onFrame }?()
    }

    private func record(ended error: ScreenSourceError) {
        condition.withLock {
            if stopped { lateCalls += 1 }
            endings.append(error)
            condition.broadcast()
        }
    }

    var frameCount: Int { condition.withLock { frames.count } }
    var ends: [ScreenSourceError] { condition.withLock { endings } }
    var callsAfterStop: Int { condition.withLock { lateCalls } }
    func markStopped() { condition.withLock { stopped = true } }

    /// Frames that arrived between two monotonic times.
    func frames(from start: UInt64, to end: UInt64) -> Int {
        condition.withLock { frames.filter { $0.arrivedAt >= start && $0.arrivedAt <= end }.count }
    }

    /// Waits (up to a generous `seconds`) until `done` holds for the frames and ends so far; returns whether it did.
    @discardableResult
    func wait(seconds: Double = 10, until done: ([Frame], [ScreenSourceError]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !done(frames, endings) {
                guard condition.wait(until: deadline) else { return done(frames, endings) }
            }
            return true
        }
    }

    /// Waits for the frame after the first `count` ones and returns it.
    func frame(after count: Int, seconds: Double = 10) -> Frame? {
        wait(seconds: seconds) { frames, _ in frames.count > count }
        return condition.withLock { frames.count > count ? frames[count] : nil }
    }
}

/// A test's own client of a private X server: paints the root window, moves the pointer, sets its cursor.
final class XPainter {
    let display: OpaquePointer
    private let root: Window
    private let gc: GC

    init?(_ name: String) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        root = XDefaultRootWindow(display)
        gc = XCreateGC(display, root, 0, nil)
    }

    deinit {
        XFreeGC(display, gc)
        XCloseDisplay(display)
    }

    /// Fills a rectangle of the root window with 0xRRGGBB and waits until it is drawn.
    func fill(_ x: Int32, _ y: Int32, _ width: UInt32, _ height: UInt32, _ colour: UInt) {
        XSetForeground(display, gc, colour)
        XFillRectangle(display, root, gc, x, y, width, height)
        XSync(display, 0)
    }

    /// Gives the root window the usual arrow cursor (Xvfb's own may be empty).
    func showArrowCursor() {
        XDefineCursor(display, root, XCreateFontCursor(display, 68))  // XC_left_ptr
        XSync(display, 0)
    }

    func warpPointer(to x: Int32, _ y: Int32) {
        XWarpPointer(display, 0, root, 0, 0, 0, 0, x, y)
        XSync(display, 0)
    }
}

/// Draws on a private X server from a thread of its own until stopped, far faster than any capture rate.
final class ContinuousPainter: @unchecked Sendable {
    private let running = NSCondition()
    private var stopRequested = false
    private var finished = false

    init(display: String) {
        Thread { [self] in
            paint(on: display)
            finish()
        }.start()
    }

    /// Paints until stopped; the connection is closed when this returns, before `stop()` lets the test stop the
    /// server (a connection closed after its server is gone takes the process down with it).
    private func paint(on display: String) {
        guard let painter = XPainter(display) else { return }
        var colour: UInt = 0x10_20_30
        while !(running.withLock { stopRequested }) {
            colour ^= 0xFF_FF_FF
            painter.fill(10, 10, 40, 40, colour)
            usleep(2_000)
        }
    }

    private func finish() {
        running.withLock {
            finished = true
            running.broadcast()
        }
    }

    func stop() {
        running.withLock {
            stopRequested = true
            while !finished { running.wait() }
        }
    }
}

/// The CPU time (user + system, in clock ticks) the process's threads named `name` have used so far.
func cpuTicks(ofThreadsNamed name: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.reduce(0) { total, task in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
            let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return total }
        // Fields after "(comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return total + (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}

/// Whether any thread of this process is named `name`.
func threadExists(named name: String) -> Bool {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.contains { task in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
    }
}

/// Waits (up to a generous `seconds`) until no thread of this process is named `name`: the loop has ended when
/// `stop()` returns, but the kernel thread takes a moment more to go.
func threadEnds(named name: String, seconds: Double = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while threadExists(named: name) {
        guard Date() < deadline else { return false }
        usleep(10_000)
    }
    return true
}
