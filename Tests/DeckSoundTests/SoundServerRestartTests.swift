import DeckDesktop
import DeckSound
import Foundation
import Testing

/// A sound server that dies while a device listens (killed, then started again): the capture sets the routing
/// and the recording up again by itself, packets flow again, and the last consumer out still restores. Runs a
/// private PulseAudio of its own (like `scripts/with-desktop`), on a thread of its own.
extension SoundLiveTests {
    @Suite struct SoundServerRestartTests {
        struct Outcome: Sendable {
            var firstRun = false, afterRestart = false, restored = false, defaultAfter = ""
        }

        /// Where the scenario is, so a test that hangs says where instead of hanging the run.
        static let stage = LockedStage()

        final class LockedStage: @unchecked Sendable {
            private let lock = NSLock()
            private var value = "not started"
            private var answered = false
            func set(_ new: String) { lock.withLock { value = new } }
            var current: String { lock.withLock { value } }
            /// True for the first caller only.
            func answer() -> Bool {
                lock.withLock {
                    defer { answered = true }
                    return !answered
                }
            }
        }

        @Test func aServerThatRestartsWhileSomeoneListensIsRoutedAndRecordedAgain() async throws {
            let pulse = try PrivatePulse()
            let stage = Self.stage
            let outcome: Outcome? = await withCheckedContinuation { continuation in
                Thread { if stage.answer() { continuation.resume(returning: Self.scenario(pulse)) } }.start()
                // A watchdog: a hang becomes a failure that names the stage (the stuck thread is left behind).
                DispatchQueue.global().asyncAfter(deadline: .now() + 90) {
                    if stage.answer() { continuation.resume(returning: nil) }
                }
            }
            guard let outcome else {
                Issue.record("the scenario hung at: \(stage.current)")
                return
            }
            #expect(outcome.firstRun, "packets before the restart")
            #expect(outcome.afterRestart, "packets again after the server came back")
            #expect(outcome.restored && outcome.defaultAfter == "speakers", "the last one out restores")
        }

        static func scenario(_ pulse: PrivatePulse) -> Outcome {
            var outcome = Outcome()
            stage.set("starting the server")
            guard pulse.start() else { return outcome }
            defer { pulse.kill() }
            let capture = SoundCapture(server: pulse.server, store: RoutingRecordStore.memory().0, log: .silent)
            let counter = SoundCaptureLiveTests.Counter()
            stage.set("subscribing")
            let subscription = capture.subscribe(counter.consumer) { _ in }
            var player = pulse.play()
            outcome.firstRun = waitUntil { counter.count > 20 }
            stage.set("restarting the server")
            pulse.kill()
            PrivatePulse.end(player)
            _ = pulse.start()
            player = pulse.play()
            let before = counter.count
            stage.set("waiting for packets after the restart")
            outcome.afterRestart = waitUntil { counter.count > before + 20 }
            stage.set("cancelling and settling")
            subscription.cancel()
            capture.settle()
            stage.set("reading the server's state")
            outcome.defaultAfter = pulse.pactl("get-default-sink")
            outcome.restored = !pulse.pactl("list", "short", "sinks").contains(SoundRouter.sinkName)
            PrivatePulse.end(player)
            return outcome
        }
    }
}
