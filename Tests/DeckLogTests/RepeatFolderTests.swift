import Foundation
import Testing

@testable import DeckLog

/// Repeated log lines are counted, not repeated (a flood of hellos during the PIN back-off wrote 3,474 lines a
/// second). The clock is injected; nothing sleeps.
@Suite struct RepeatFolderTests {
    typealias Line = RepeatFolder.Line
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func aRunOfTheSameLineIsWrittenOnceThenCounted() {
        var folder = RepeatFolder(window: .seconds(10))
        let line = Line(.notice, "a device asked to pair during the PIN back-off", ["device.name": "x"])
        #expect(folder.offer(line, now: at(0)) == [line])
        for i in 1..<1000 { #expect(folder.offer(line, now: at(Double(i) / 1000)).isEmpty) }
        let other = Line(.info, "serving")
        #expect(
            folder.offer(other, now: at(2)) == [
                Line(
                    .notice, "… repeated 999 more times: a device asked to pair during the PIN back-off",
                    ["device.name": "x"]),
                other,
            ])
    }

    @Test func differentMetadataIsFoldedAndItsValuesKept() {
        var folder = RepeatFolder(window: .seconds(10))
        _ = folder.offer(Line(.warning, "wrong PIN", ["peer": "10.0.0.1"]), now: at(0))
        for peer in ["10.0.0.2", "10.0.0.3", "10.0.0.2"] {
            #expect(folder.offer(Line(.warning, "wrong PIN", ["peer": peer]), now: at(1)).isEmpty)
        }
        #expect(folder.flush() == [Line(.warning, "… repeated 3 more times: wrong PIN", ["peer": "10.0.0.2,10.0.0.3"])])
        #expect(folder.flush().isEmpty)
    }

    @Test func atMostFiveValuesPerKeyAreKept() {
        var folder = RepeatFolder(window: .seconds(10))
        _ = folder.offer(Line(.notice, "m", ["device.name": "n0"]), now: at(0))
        for i in 1...8 { _ = folder.offer(Line(.notice, "m", ["device.name": "n\(i)"]), now: at(1)) }
        #expect(folder.flush().first?.metadata == ["device.name": "n1,n2,n3,n4,n5,+3 more"])
    }

    @Test func afterTheWindowTheLineIsWrittenAgainAfterItsCount() {
        var folder = RepeatFolder(window: .seconds(10))
        let line = Line(.notice, "m")
        _ = folder.offer(line, now: at(0))
        _ = folder.offer(line, now: at(5))
        #expect(folder.offer(line, now: at(10)) == [Line(.notice, "… repeated 1 more time: m"), line])
        #expect(folder.offer(line, now: at(19.9)).isEmpty)
    }

    @Test func aSameMessageAtAnotherLevelIsNotFolded() {
        var folder = RepeatFolder(window: .seconds(10))
        #expect(folder.offer(Line(.info, "m"), now: at(0)).count == 1)
        #expect(folder.offer(Line(.warning, "m"), now: at(0)) == [Line(.warning, "m")])
    }

    @Test func theLoggerFoldsWithTheInjectedClockAndFlushes() {
        let sink = LineSink()
        let clock = FakeClock(start)
        let log = Logger(minimum: .info, foldRepeatsWithin: .seconds(10), clock: clock.now, sink: sink.write)
        for _ in 0..<3474 { log.notice("a device asked to pair during the PIN back-off", ["retry.after": "30"]) }
        log.debug("below the minimum: neither written nor counted")
        #expect(sink.lines == ["[notice] a device asked to pair during the PIN back-off"])
        clock.advance(.seconds(11))
        log.notice("a device asked to pair during the PIN back-off")
        log.flushRepeats()
        #expect(
            sink.lines == [
                "[notice] a device asked to pair during the PIN back-off",
                "[notice] … repeated 3473 more times: a device asked to pair during the PIN back-off",
                "[notice] a device asked to pair during the PIN back-off",
            ])
    }

    @Test func aLoggerWithoutAWindowWritesEveryLine() {
        let sink = LineSink()
        let log = Logger(minimum: .info, sink: sink.write)
        for _ in 0..<3 { log.info("same") }
        #expect(sink.lines == ["[info] same", "[info] same", "[info] same"])
    }
}

/// The in-memory log handler: lines as `[level] message`.
private final class LineSink: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    var write: Logger.Sink {
        { level, message, _ in self.lock.withLock { self.stored.append("[\(level)] \(message)") } }
    }
}

/// A clock the test moves by hand.
private final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: ContinuousClock.Instant
    init(_ start: ContinuousClock.Instant) { current = start }
    var now: @Sendable () -> ContinuousClock.Instant { { self.lock.withLock { self.current } } }
    func advance(_ by: Duration) { lock.withLock { current += by } }
}
