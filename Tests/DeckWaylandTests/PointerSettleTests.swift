import DeckDesktop
import DeckKit
import Synchronization
import Testing

@testable import DeckWayland

/// The press after a remote-desktop session's first motion waits until the pointer has settled (issue 19.3), on a
/// clock the test moves by hand: no compositor, no real sleep.
struct PointerSettleTests {
    /// A clock that stands still until `advance` or the settle's own sleep moves it.
    final class HandClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        let start: ContinuousClock.Instant

        init() { start = instant.withLock { $0 } }

        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        /// How far the clock has moved since it was made.
        var elapsed: Duration { now - start }
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }

        func settle() -> PointerSettle {
            PointerSettle(now: { self.now }, sleep: { self.advance($0) })
        }
    }

    @Test func aPressRightAfterTheFirstMotionWaitsTheWholeFirstSettle() {
        let clock = HandClock()
        let settle = clock.settle()
        #expect(settle.waitBeforePress() == .zero, "no motion yet: nothing to wait for")
        settle.moved(x: 100, y: 100)
        #expect(settle.waitBeforePress() == .milliseconds(120))
    }

    @Test func aPressLaterAfterTheFirstMotionWaitsOnlyWhatIsLeft() {
        let clock = HandClock()
        let settle = clock.settle()
        settle.moved(x: 100, y: 100)
        clock.advance(.milliseconds(70))
        #expect(settle.waitBeforePress() == .milliseconds(50))

        let settled = clock.settle()
        settled.moved(x: 100, y: 100)
        clock.advance(.milliseconds(500))
        #expect(settled.waitBeforePress() == .zero, "the pointer settled long ago")
    }

    @Test func laterPressesWaitOnlyAfterAMotionToANewPlaceAndThenBriefly() {
        let clock = HandClock()
        let settle = clock.settle()
        settle.moved(x: 100, y: 100)
        #expect(settle.waitBeforePress() == .milliseconds(120))
        #expect(settle.waitBeforePress() == .zero, "a second click with no motion before it")
        settle.moved(x: 100, y: 100)
        #expect(settle.waitBeforePress() == .zero, "a motion to the same place is no motion")
        settle.moved(x: 300, y: 40)
        #expect(settle.waitBeforePress() == .milliseconds(25), "only the session's first motion waits 120 ms")
        settle.moved(x: 310, y: 40)
        clock.advance(.milliseconds(10))
        #expect(settle.waitBeforePress() == .milliseconds(15))
    }

    /// The remote-desktop sink (Mutter's and the portal's) holds the first press until the settle time, and
    /// sends a release, a second click and a press after a later motion without that wait.
    @Test func theRemoteDesktopSinkHoldsOnlyTheFirstPressAfterTheFirstMotion() async throws {
        let clock = HandClock()
        let session = FakeRemoteSession(settle: clock.settle(), clock: clock)
        let sink = RemoteInput.sink { (_, _, body: @escaping @Sendable (FakeRemoteSession) throws(DBusError) -> Void) in
            try body(session)
        }
        let monitor = Rect(x: 0, y: 0, width: 1280, height: 720)
        try await sink.movePointer(MonitorPixel(x: 200, y: 150, monitor: monitor))
        try await sink.setButton(.left, true)
        try await sink.setButton(.left, false)
        try await sink.setButton(.left, true)
        try await sink.setButton(.left, false)
        try await sink.movePointer(MonitorPixel(x: 640, y: 360, monitor: monitor))
        try await sink.setButton(.left, true)
        try await sink.setButton(.left, false)
        #expect(
            session.events == [
                .init(what: "move 200,150", at: 0),
                .init(what: "press", at: 120), .init(what: "release", at: 120),
                .init(what: "press", at: 120), .init(what: "release", at: 120),
                .init(what: "move 640,360", at: 120),
                .init(what: "press", at: 145), .init(what: "release", at: 145),
            ])
    }
}

/// A remote-desktop session that notes each pointer call with the hand clock's milliseconds.
final class FakeRemoteSession: RemoteInputSession, Sendable {
    struct Event: Equatable, CustomStringConvertible {
        var what: String
        var at: Int64
        var description: String { "\(what) @\(at) ms" }
    }

    let pointerSettle: PointerSettle
    let layout = LayoutKeysyms()
    private let clock: PointerSettleTests.HandClock
    private let noted = Mutex<[Event]>([])

    init(settle: PointerSettle, clock: PointerSettleTests.HandClock) {
        pointerSettle = settle
        self.clock = clock
    }

    var events: [Event] { noted.withLock { $0 } }

    private func note(_ what: String) {
        let (seconds, attoseconds) = clock.elapsed.components
        let event = Event(what: what, at: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        noted.withLock { $0.append(event) }
    }

    func move(x: Double, y: Double) throws(DBusError) { note("move \(Int(x)),\(Int(y))") }
    func button(_ code: Int32, pressed: Bool) throws(DBusError) {
        #expect(code == 0x110)
        note(pressed ? "press" : "release")
    }
    func axis(_ axis: UInt32, steps: Int32) throws(DBusError) { note("axis") }
    func key(_ keysym: UInt32, pressed: Bool) throws(DBusError) { note("key") }
}
