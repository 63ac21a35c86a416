import CX11
import DeckDesktop
import Glibc

/// The capture thread's work: wait in `poll` on the display and the wake-up pipe, gather damage and pointer
/// moves, and grab when the pacer says a frame is due. Everything here belongs to the capture thread.
final class CaptureLoop {
    private let connection: XCaptureConnection
    private let control: CaptureControl
    private let handlers: CaptureHandlers
    private var pacer: CapturePacer
    /// Where the pointer was last seen, monitor-relative (nil: on another X screen).
    private var pointer: (x: Int, y: Int)?
    /// Where the cursor was drawn in the last frame, so moving it away repaints that part.
    private var drawnCursor: PixelRect?
    /// When the pointer is next queried (a move raises no event): once per frame interval.
    private var nextPointerCheck: UInt64 = 0

    init(connection: XCaptureConnection, control: CaptureControl, handlers: CaptureHandlers, fps: Int) {
        self.connection = connection
        self.control = control
        self.handlers = handlers
        pacer = CapturePacer(width: connection.area.width, height: connection.area.height, fps: fps)
    }

    /// Runs until `stop()` is asked for or the capture ends by itself.
    func run() {
        while true {
            let requests = control.take()
            if requests.stop { return }
            pacer.setFPS(requests.fps)
            if requests.refresh { pacer.refresh() }
            let changes = connection.takeEvents()
            if connection.isLost { return end(.noDisplay) }
            if changes.layoutChanged, !connection.monitorIsThere() {
                return end(connection.isLost ? .noDisplay : .noSuchMonitor)
            }
            for rect in changes.damage { pacer.damaged(rect) }
            let now = monotonicNow()
            if changes.cursorChanged || now >= nextPointerCheck {
                followPointer(shapeChanged: changes.cursorChanged)
                nextPointerCheck = now + pacer.interval
            }
            if let damage = pacer.takeFrame(now: now) {
                do throws(ScreenSourceError) { try deliver(damage) } catch { return end(error) }
                continue
            }
            wait(until: min(pacer.dueAt() ?? .max, nextPointerCheck))
        }
    }

    /// Reports an end the capture came to by itself, unless the owner is stopping it anyway.
    private func end(_ error: ScreenSourceError) {
        if !control.isStopping { handlers.ended(error) }
    }

    /// Queries the pointer; a move (or a new cursor picture) repaints where the cursor was and where it is.
    private func followPointer(shapeChanged: Bool) {
        let now = connection.pointer()
        guard shapeChanged || now?.x != pointer?.x || now?.y != pointer?.y else { return }
        pointer = now
        if let drawnCursor { pacer.damaged(drawnCursor) }
        if let now, let cursor = connection.cursor { pacer.damaged(cursor.frame(pointerX: now.x, pointerY: now.y)) }
    }

    /// Grabs the monitor, draws the cursor in and lends the frame to the handler.
    private func deliver(_ damage: [PixelRect]) throws(ScreenSourceError) {
        followPointer(shapeChanged: false)
        let cursorFrame = pointer.flatMap { at in connection.cursor.map { $0.frame(pointerX: at.x, pointerY: at.y) } }
        let format = connection.format
        let bounds = pacer.bounds
        try connection.grab { pixels, stride in
            let capturedAt = CapturedFrame.now()
            if let cursor = connection.cursor, let cursorFrame {
                cursor.draw(into: pixels, stride: stride, size: bounds, left: cursorFrame.x, top: cursorFrame.y)
            }
            handlers.frame(
                CapturedFrame(
                    width: bounds.width, height: bounds.height, stride: stride, format: format,
                    pixels: UnsafeRawPointer(pixels), damage: damage, capturedAt: capturedAt))
        }
        drawnCursor = cursorFrame
    }

    /// Sleeps in `poll` until an event, a wake-up, or `deadline` (monotonic nanoseconds).
    private func wait(until deadline: UInt64) {
        if connection.flush() { return }
        let now = monotonicNow()
        let milliseconds = deadline <= now ? 0 : Int32(min((deadline - now + 999_999) / 1_000_000, 1000))
        var fds = [
            pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: control.wakeReader, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, milliseconds)
        if fds[1].revents != 0 { control.drainWakeUps() }
    }
}

/// CLOCK_MONOTONIC in nanoseconds: frame pacing must not jump with the wall clock.
func monotonicNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

@available(*, unavailable) extension CaptureLoop: Sendable {}
