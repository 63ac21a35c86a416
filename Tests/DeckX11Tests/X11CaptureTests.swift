import CX11
import DeckDesktop
import Foundation
import Testing

@testable import DeckX11

/// The continuous X11 capture against private Xvfb servers (windows other tests open on the shared display
/// cannot get in the way). One test at a time: several captures at once on two cores would only test the
/// machine. Waits have generous deadlines; no assertion depends on how fast the machine is.
@Suite(.serialized) struct X11CaptureTests {
    /// Servers of this suite take display numbers from 400 up, clear of X11ScreenTests' (from 0 up).
    final class PrivateServer {
        private let server: X11ScreenTests.PrivateServer
        var display: String { server.display }

        init(width: Int, height: Int) throws {
            server = try X11ScreenTests.PrivateServer(width: width, height: height, firstDisplay: 400)
        }

        func paint(_ rectangles: [(Int32, Int32, UInt32, UInt32, UInt)]) { server.paint(rectangles) }
        func stop() { server.stop() }
    }

    let background: UInt = 0x33_66_99
    let backgroundBytes: [UInt8] = [0x99, 0x66, 0x33]

    func wholeScreen(_ width: Int, _ height: Int) -> Monitor {
        Monitor(id: 0, name: "screen", frame: PixelRect(x: 0, y: 0, width: width, height: height))
    }

    func pixel(_ image: ScreenImage?, _ x: Int, _ y: Int) -> [UInt8] {
        guard let image else { return [] }
        let at = y * image.stride + x * 4
        return Array(image.pixels[at..<at + 3])
    }

    /// Whether every pixel of `rect` in `image` has the background colour.
    func isBackground(_ image: ScreenImage?, _ rect: PixelRect) -> Bool {
        (rect.y..<rect.y + rect.height).allSatisfy { y in
            (rect.x..<rect.x + rect.width).allSatisfy { x in pixel(image, x, y) == backgroundBytes }
        }
    }

    @Test func theFirstFrameIsTheWholeMonitorAsDrawn() async throws {
        let server = try PrivateServer(width: 1920, height: 1080)
        defer { server.stop() }
        server.paint([(0, 0, 960, 1080, 0xFF0000), (960, 0, 960, 1080, 0x0000FF), (100, 200, 1, 1, 0x10_20_30)])
        let monitors = try await ScreenSource.x11(display: server.display).monitors()
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: monitors[0], fps: 30, handlers: recorder.handlers)
        defer { capture.stop() }
        let first = try #require(recorder.frame(after: 0))
        #expect(first.width == 1920 && first.height == 1080)
        #expect(first.damage == [PixelRect(x: 0, y: 0, width: 1920, height: 1080)])
        #expect(first.image?.format == .bgrx)
        #expect(pixel(first.image, 0, 0) == [0, 0, 255])
        #expect(pixel(first.image, 1919, 1079) == [255, 0, 0])
        #expect(pixel(first.image, 100, 200) == [0x30, 0x20, 0x10])
    }

    @Test func aStillScreenGivesNoMoreFramesAndItsThreadSleeps() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 30, handlers: recorder.handlers)
        defer { capture.stop() }
        #expect(recorder.frame(after: 0) != nil)
        let ticksBefore = cpuTicks(ofThreadsNamed: X11Capture.threadName)
        Thread.sleep(forTimeInterval: 1)
        #expect(recorder.frameCount == 1)
        // A spinning loop would use 100 ticks in that second; polling the pointer 30 times costs next to none.
        #expect(cpuTicks(ofThreadsNamed: X11Capture.threadName) - ticksBefore <= 10)
        #expect(threadExists(named: X11Capture.threadName))
    }

    @Test func aRectangleDrawnComesInTheNextFrameWithItsDamage() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        server.paint([(0, 0, 640, 480, background)])
        let recorder = CaptureRecorder()
        let monitor = Monitor(id: 0, name: "right", frame: PixelRect(x: 320, y: 0, width: 320, height: 480))
        let capture = try X11Capture(display: server.display, monitor: monitor, fps: 30, handlers: recorder.handlers)
        defer { capture.stop() }
        #expect(recorder.frame(after: 0)?.width == 320)
        server.paint([(400, 300, 50, 40, 0x00FF00)])
        let drawn = PixelRect(x: 80, y: 300, width: 50, height: 40)
        let frame = try #require(recorder.frame(after: 1))
        #expect(frame.damage.reduce(PixelRect(x: 80, y: 300, width: 0, height: 0)) { $0.union($1) }.contains(drawn))
        #expect(pixel(frame.image, 80, 300) == [0, 255, 0] && pixel(frame.image, 129, 339) == [0, 255, 0])
        #expect(pixel(frame.image, 79, 300) == backgroundBytes)
        // Drawing on the other half of the screen is not this monitor's business.
        server.paint([(10, 10, 50, 50, 0xFFFFFF)])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(recorder.frameCount == 2)
    }

    @Test func framesNeverComeFasterThanTheRateAndSetFPSChangesIt() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 20, handlers: recorder.handlers)
        defer { capture.stop() }
        let painter = ContinuousPainter(display: server.display)
        defer { painter.stop() }
        #expect(recorder.frame(after: 2) != nil)
        #expect(count(recorder, seconds: 1.5) <= 20 * 3 / 2 + 2)
        capture.setFPS(4)
        // The frame already due at the old rate may still come; the new rate holds from the next one.
        let seen = recorder.frameCount
        #expect(recorder.frame(after: seen + 1) != nil)
        let slow = count(recorder, seconds: 2)
        #expect(slow >= 1 && slow <= 4 * 2 + 2)
    }

    /// Frames that arrive during the next `seconds`.
    func count(_ recorder: CaptureRecorder, seconds: Double) -> Int {
        let start = monotonicNow()
        Thread.sleep(forTimeInterval: seconds)
        return recorder.frames(from: start, to: monotonicNow())
    }

    @Test func refreshOnAStillScreenGivesExactlyOneFrameOfTheWholeMonitor() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 30, handlers: recorder.handlers)
        defer { capture.stop() }
        #expect(recorder.frame(after: 0) != nil)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(recorder.frameCount == 1)
        capture.refresh()
        #expect(recorder.frame(after: 1)?.damage == [PixelRect(x: 0, y: 0, width: 640, height: 480)])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(recorder.frameCount == 2)
    }

    @Test func movingThePointerGivesAFrameWithTheCursorDrawnWhereItIsNow() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        server.paint([(0, 0, 640, 480, background)])
        let painter = try #require(XPainter(server.display))
        painter.showArrowCursor()
        painter.warpPointer(to: 320, 240)
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 30, handlers: recorder.handlers)
        defer { capture.stop() }
        // The arrow's tip is its hot spot: the picture lies below and to the right of the pointer.
        let first = try #require(recorder.frame(after: 0))
        // Results kept in locals: a failed #expect on the call would print the whole picture.
        let drawnAtStart = !isBackground(first.image, PixelRect(x: 320, y: 240, width: 10, height: 10))
        let clearElsewhere = isBackground(first.image, PixelRect(x: 100, y: 100, width: 10, height: 10))
        #expect(drawnAtStart && clearElsewhere)
        painter.warpPointer(to: 100, 100)
        let moved = try #require(recorder.frame(after: 1))
        let drawnWhereItIs = !isBackground(moved.image, PixelRect(x: 100, y: 100, width: 10, height: 10))
        let goneWhereItWas = isBackground(moved.image, PixelRect(x: 320, y: 240, width: 10, height: 10))
        #expect(drawnWhereItIs)
        #expect(goneWhereItWas)
        let damaged = moved.damage.dropFirst().reduce(moved.damage[0]) { $0.union($1) }
        #expect(damaged.contains(PixelRect(x: 100, y: 100, width: 5, height: 5)))
        #expect(damaged.contains(PixelRect(x: 320, y: 240, width: 5, height: 5)))
    }

    @Test func stopReturnsOnceNoHandlerRunsAndCanBeCalledAgain() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 60, handlers: recorder.handlers)
        let painter = ContinuousPainter(display: server.display)
        defer { painter.stop() }
        #expect(recorder.frame(after: 3) != nil)
        capture.stop()
        recorder.markStopped()
        #expect(threadEnds(named: X11Capture.threadName))
        Thread.sleep(forTimeInterval: 0.3)
        capture.stop()
        #expect(recorder.callsAfterStop == 0)
        #expect(recorder.ends.isEmpty)
    }

    @Test func stopFromInsideAHandlerDoesNotWaitForItself() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 30, handlers: recorder.handlers)
        #expect(recorder.frame(after: 0) != nil)
        let returned = NSCondition()
        nonisolated(unsafe) var stoppedInside = false
        nonisolated(unsafe) var framesAtStop = 0
        // The frame that stops it is whichever comes first: the refresh below, or a late damage event from the
        // start (under load one can arrive after the first frame), so the count is taken inside the handler.
        recorder.onFrame = {
            let count = recorder.frameCount
            capture.stop()
            returned.withLock {
                framesAtStop = count
                stoppedInside = true
                returned.broadcast()
            }
        }
        capture.refresh()
        let deadline = Date(timeIntervalSinceNow: 10)
        returned.withLock { while !stoppedInside, returned.wait(until: deadline) {} }
        #expect(returned.withLock { stoppedInside })
        capture.stop()
        recorder.markStopped()
        capture.refresh()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(recorder.frameCount == returned.withLock { framesAtStop } && recorder.callsAfterStop == 0)
    }

    @Test func aMonitorOffTheScreenCannotBeCaptured() throws {
        let server = try PrivateServer(width: 640, height: 480)
        defer { server.stop() }
        let outside = Monitor(id: 0, name: "gone", frame: PixelRect(x: 700, y: 0, width: 100, height: 100))
        #expect(throws: ScreenSourceError.noSuchMonitor) {
            try X11Capture(display: server.display, monitor: outside, fps: 30, handlers: CaptureRecorder().handlers)
        }
        let source = ScreenSource.x11(display: server.display)
        #expect(throws: ScreenSourceError.noSuchMonitor) {
            try source.capture(outside, 30, CaptureRecorder().handlers)
        }
    }

    @Test func aServerThatGoesAwayEndsTheCaptureWithNoDisplayOnce() throws {
        let server = try PrivateServer(width: 640, height: 480)
        let recorder = CaptureRecorder()
        let capture = try X11Capture(
            display: server.display, monitor: wholeScreen(640, 480), fps: 30, handlers: recorder.handlers)
        #expect(recorder.frame(after: 0) != nil)
        server.stop()
        #expect(recorder.wait { _, ends in !ends.isEmpty })
        capture.stop()
        #expect(recorder.ends == [.noDisplay])
        #expect(threadEnds(named: X11Capture.threadName))
    }

    @Test func noDisplayToOpenIsReportedAtStart() {
        #expect(throws: ScreenSourceError.noDisplay) {
            try X11Capture(
                display: ":4077", monitor: wholeScreen(640, 480), fps: 30, handlers: CaptureRecorder().handlers)
        }
    }

    /// Not a check: prints what one grab of a 1920×1080 monitor costs through shared memory, and what an idle
    /// capture thread uses, for the report (`--filter grabTimeAndIdleCPU`). In this suite, so that no other
    /// capture thread runs meanwhile.
    @Test func grabTimeAndIdleCPU() throws {
        let server = try PrivateServer(width: 1920, height: 1080)
        defer { server.stop() }
        let monitor = Monitor(id: 0, name: "screen", frame: PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        do {
            let connection = try XCaptureConnection(name: server.display, monitor: monitor)
            #expect(connection.sharesMemory)
            let rounds = 50
            let start = monotonicNow()
            for _ in 0..<rounds { try connection.grab { _, _ in } }
            let perGrab = Double(monotonicNow() - start) / Double(rounds) / 1e6
            print("X11CaptureTests: \(String(format: "%.2f", perGrab)) ms per 1920x1080 XShm grab")
        }
        let recorder = CaptureRecorder()
        let capture = try X11Capture(display: server.display, monitor: monitor, fps: 60, handlers: recorder.handlers)
        defer { capture.stop() }
        _ = recorder.frame(after: 0)
        let ticks = cpuTicks(ofThreadsNamed: X11Capture.threadName)
        Thread.sleep(forTimeInterval: 3)
        let used = cpuTicks(ofThreadsNamed: X11Capture.threadName) - ticks
        print("X11CaptureTests: idle capture thread at 60 fps used \(used) ticks (1/100 s) in 3 s")
    }
}
