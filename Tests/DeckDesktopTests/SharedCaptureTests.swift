import DeckDesktop
import DeckTesting
import Foundation
import Testing

/// Counts what one consumer of a shared capture receives.
final class FrameCount: @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    private var ends: [ScreenSourceError] = []
    var count: Int { lock.withLock { frames } }
    var ended: [ScreenSourceError] { lock.withLock { ends } }
    var handlers: CaptureHandlers {
        CaptureHandlers(
            frame: { _ in self.lock.withLock { self.frames += 1 } },
            ended: { error in self.lock.withLock { self.ends.append(error) } })
    }
}

final class StartedCaptures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [FakeCapture] = []
    func add(_ capture: FakeCapture) { lock.withLock { list.append(capture) } }
    var all: [FakeCapture] { lock.withLock { list } }
}

private let monitor = Monitor(id: 3, name: "TEST-1", frame: PixelRect(x: 0, y: 0, width: 64, height: 64))
private let picture = ScreenImage.solid(width: 64, height: 64, blue: 10, green: 20, red: 30)

@Test func twoConsumersOfOneMonitorShareOneCapture() throws {
    let started = StartedCaptures()
    let source = ScreenSource.fake(monitors: [monitor], pictures: { _ in nil }, started: started.add).sharingCaptures()
    let (viewer, recorder) = (FrameCount(), FrameCount())
    let viewing = try source.capture(monitor, 30, viewer.handlers)
    let recording = try source.capture(monitor, 60, recorder.handlers)
    let capture = try #require(started.all.first)
    #expect(started.all.count == 1)
    // The back-end runs at the fastest rate asked for; a joining consumer asks for a whole picture.
    #expect(capture.fpsHistory == [30, 60])
    #expect(capture.refreshCount == 1)
    // 60 frames a second for one second: the 60 fps consumer takes all, the 30 fps one every other.
    let start: UInt64 = 1_000_000
    for index in 0..<60 { capture.deliver(picture, capturedAt: start + UInt64(index) * 16_667) }
    #expect(recorder.count == 60)
    #expect(viewer.count == 30)
    recording.stop()
    #expect(!capture.isStopped)
    #expect(capture.fpsHistory.last == 30)
    capture.deliver(picture, capturedAt: start + 2_000_000)
    #expect(viewer.count == 31)
    #expect(recorder.count == 60)
    viewing.stop()
    #expect(capture.isStopped)
    // The next consumer starts a new back-end capture.
    let again = try source.capture(monitor, 30, FrameCount().handlers)
    #expect(started.all.count == 2)
    again.stop()
}

@Test func anEndedSharedCaptureTellsEveryConsumer() throws {
    let started = StartedCaptures()
    let source = ScreenSource.fake(monitors: [monitor], pictures: { _ in nil }, started: started.add).sharingCaptures()
    let (first, second) = (FrameCount(), FrameCount())
    _ = try source.capture(monitor, 30, first.handlers)
    _ = try source.capture(monitor, 30, second.handlers)
    started.all.first?.end(.captureFailed("gone"))
    #expect(first.ended == [.captureFailed("gone")])
    #expect(second.ended == [.captureFailed("gone")])
    _ = try source.capture(monitor, 30, FrameCount().handlers)
    #expect(started.all.count == 2)
}

@Test func anUnknownMonitorStillFailsThroughTheSharedSource() {
    let other = Monitor(id: 9, name: "GONE", frame: PixelRect(x: 0, y: 0, width: 64, height: 64))
    let source = ScreenSource.fake(monitors: [monitor], pictures: { _ in nil }).sharingCaptures()
    #expect(throws: ScreenSourceError.noSuchMonitor) { try source.capture(other, 30, FrameCount().handlers) }
}

@Test func aFrameSkippedForRateIsAskedForAgainWhenTheScreenThenStandsStill() async throws {
    let started = StartedCaptures()
    let source = ScreenSource.fake(monitors: [monitor], pictures: { _ in nil }, started: started.add).sharingCaptures()
    let (viewer, recorder) = (FrameCount(), FrameCount())
    let viewing = try source.capture(monitor, 30, viewer.handlers)
    let recording = try source.capture(monitor, 60, recorder.handlers)
    let capture = try #require(started.all.first)
    let joined = capture.refreshCount
    // The last change comes 17 ms after the one before: the 30 fps viewer skips it, and the screen stands still.
    let start = CapturedFrame.now()
    capture.deliver(picture, capturedAt: start)
    capture.deliver(picture, capturedAt: start + 16_667)
    #expect(viewer.count == 1)
    #expect(recorder.count == 2)
    // Nothing else would ever come: the viewer's owed picture is asked for at the end of its interval.
    let deadline = ContinuousClock.now + .seconds(2)
    while capture.refreshCount == joined, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    #expect(capture.refreshCount == joined + 1)
    capture.deliver(picture, capturedAt: start + 40_000)
    #expect(viewer.count == 2)
    recording.stop()
    viewing.stop()
}
