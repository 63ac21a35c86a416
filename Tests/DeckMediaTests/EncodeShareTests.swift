import DeckDesktop
import DeckKit
import DeckMedia
import Foundation
import Testing

/// A tap that writes down what it was told.
private final class Tap: EncodeTap, @unchecked Sendable {
    private let lock = NSLock()
    private var said: [String] = []

    var events: [String] { lock.withLock { said } }
    func wantsKeyframe(at micros: UInt64) -> Bool { false }
    func take(_ frame: EncodedFrame, capturedAt micros: UInt64) { lock.withLock { said.append("take") } }
    func attached() { lock.withLock { said.append("attached") } }
    func detached() { lock.withLock { said.append("detached") } }
}

private let monitor = Monitor(id: 1, name: "HDMI-1", frame: PixelRect(x: 0, y: 0, width: 1920, height: 1080))
private let full = EncodeShare.Key(monitor: monitor, size: PixelSize(width: 1920, height: 1080), fps: 60)

@Test func aRecordingIsFedByAViewerOfTheSamePictureWhicheverComesFirst() {
    let share = EncodeShare()
    let early = Tap()
    share.join(full, tap: early)
    #expect(early.events.isEmpty, "nobody views yet: the recording encodes by itself")
    let stream = share.offer(full)
    #expect(early.events == ["attached"])
    #expect(stream.tap === early)

    let late = EncodeShare()
    let viewer = late.offer(full)
    let tap = Tap()
    late.join(full, tap: tap)
    #expect(tap.events == ["attached"])
    #expect(viewer.tap === tap)
}

@Test func anotherSizeOrRateIsNotShared() {
    let share = EncodeShare()
    let tap = Tap()
    share.join(full, tap: tap)
    let smaller = share.offer(EncodeShare.Key(monitor: monitor, size: PixelSize(width: 1280, height: 720), fps: 60))
    let slower = share.offer(EncodeShare.Key(monitor: monitor, size: full.size, fps: 30))
    #expect(tap.events.isEmpty)
    #expect(smaller.tap == nil && slower.tap == nil)
    // The slower stream switches to the recording's rate: now it feeds it; back again, it lets go.
    slower.move(to: full)
    #expect(tap.events == ["attached"])
    slower.move(to: EncodeShare.Key(monitor: monitor, size: full.size, fps: 30))
    #expect(tap.events == ["attached", "detached"])
    #expect(slower.tap == nil)
}

@Test func aStreamThatStopsHandsTheRecordingBackOrToAnotherStream() {
    let share = EncodeShare()
    let tap = Tap()
    let first = share.offer(full)
    let second = share.offer(full)
    share.join(full, tap: tap)
    #expect(tap.events == ["attached"])
    let feeding = first.tap != nil ? first : second
    let other = feeding === first ? second : first
    feeding.withdraw()
    #expect(tap.events == ["attached", "attached"], "the other stream of the same picture takes over")
    #expect(other.tap === tap)
    other.withdraw()
    #expect(tap.events == ["attached", "attached", "detached"])
    other.withdraw()
    #expect(tap.events.count == 3, "withdrawing twice tells nobody twice")
}

@Test func aRecordingThatLeavesIsNotToldAndNoLongerFed() {
    let share = EncodeShare()
    let tap = Tap()
    let stream = share.offer(full)
    share.join(full, tap: tap)
    share.leave(tap)
    #expect(stream.tap == nil)
    stream.withdraw()
    #expect(tap.events == ["attached"])
    // A stream offered later finds no recording waiting.
    #expect(share.offer(full).tap == nil)
}
