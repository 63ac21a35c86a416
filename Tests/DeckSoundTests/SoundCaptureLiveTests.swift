import DeckDesktop
import DeckSound
import Foundation
import Testing

/// `SoundCapture` against the private PulseAudio of `scripts/with-desktop` (fails, never skips, outside it):
/// two consumers share one routing and one recording, the first one out leaves both running for the other,
/// and the last one out puts the speakers back. The blocking parts run on a thread of their own, not the
/// cooperative pool.
/// The live capture tests share one parent so they never run at the same time (each watches its own server's
/// sinks and children).
@Suite(.serialized) struct SoundLiveTests {}

extension SoundLiveTests {
    @Suite struct SoundCaptureLiveTests {
        /// `pactl` against `scripts/with-desktop`'s server (spawned and reaped without Foundation's Process, which
        /// hung in waitUntilExit beside other tests' killed children).
        static func pactl(_ arguments: String...) -> String {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("pactl-\(UUID()).out").path
            defer { unlink(output) }
            let pid = PrivatePulse.spawn(["pactl"] + arguments, stdout: output)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let data = FileManager.default.contents(atPath: output) ?? Data()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        static var sinkNames: [String] {
            pactl("list", "short", "sinks").split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
        }

        /// Counts the packets a consumer hears, and checks each is one whole 10 ms stereo packet.
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var packets = 0
            private var wrongSizes = 0
            var count: Int { lock.withLock { packets } }
            var misshapen: Int { lock.withLock { wrongSizes } }
            var consumer: SoundConsumer {
                { samples, _ in
                    self.lock.withLock {
                        self.packets += 1
                        if samples.count != 960 { self.wrongSizes += 1 }
                    }
                }
            }
        }

        static func started(_ capture: SoundCapture, _ counter: Counter) -> (SoundSubscription, SoundError?) {
            let done = DispatchSemaphore(value: 0)
            let answer = LockedAnswer()
            let subscription = capture.subscribe(counter.consumer) { error in
                answer.error = error
                done.signal()
            }
            done.wait()
            return (subscription, answer.error)
        }

        final class LockedAnswer: @unchecked Sendable { var error: SoundError? }

        @Test func twoConsumersShareOneRoutingAndTheLastOneOutRestores() async throws {
            let server = try #require(
                ProcessInfo.processInfo.environment["PULSE_SERVER"], "run under scripts/with-desktop")
            #expect(!server.isEmpty)
            let outcome = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: Self.scenario()) }.start()
            }
            #expect(outcome.speakers != SoundRouter.sinkName)
            #expect(outcome.errors == [nil, nil] as [SoundError?])
            #expect(outcome.routedSinks == 1, "one TouchDeck sink for both consumers")
            #expect(outcome.defaultWhileRouted == SoundRouter.sinkName)
            #expect(outcome.bothHeard && outcome.secondKeptHearing, "packets reach both, then the one left")
            #expect(outcome.firstStopped, "no packet after cancel")
            #expect(outcome.stillRoutedForTheSecond)
            #expect(outcome.defaultAfter == outcome.speakers && outcome.routedSinksAfter == 0)
            #expect(outcome.misshapen == 0)
        }

        struct Outcome: Sendable {
            var speakers = "", defaultWhileRouted = "", defaultAfter = ""
            var errors: [SoundError?] = []
            var routedSinks = 0, routedSinksAfter = 0, misshapen = 0
            var bothHeard = false, secondKeptHearing = false, firstStopped = false, stillRoutedForTheSecond = false
        }

        static func scenario() -> Outcome {
            var outcome = Outcome()
            outcome.speakers = pactl("get-default-sink")
            // Something playing keeps the null sink rendering, so its monitor delivers.
            let player = PrivatePulse.spawn(
                ["pacat", "--raw", "--rate=48000", "--channels=2", "--format=s16le"], stdin: "/dev/zero")
            let capture = SoundCapture(store: RoutingRecordStore.memory().0, log: .silent)
            let (first, second) = (Counter(), Counter())
            let (a, errorA) = started(capture, first)
            let (b, errorB) = started(capture, second)
            outcome.errors = [errorA, errorB]
            outcome.routedSinks = sinkNames.filter { $0 == SoundRouter.sinkName }.count
            outcome.defaultWhileRouted = pactl("get-default-sink")
            outcome.bothHeard = waitUntil { first.count > 20 && second.count > 20 }
            a.cancel()
            capture.settle()
            let firstCount = first.count
            let secondCount = second.count
            outcome.secondKeptHearing = waitUntil { second.count > secondCount + 20 }
            outcome.firstStopped = first.count == firstCount
            outcome.stillRoutedForTheSecond = sinkNames.contains(SoundRouter.sinkName)
            b.cancel()
            capture.settle()
            outcome.defaultAfter = pactl("get-default-sink")
            outcome.routedSinksAfter = sinkNames.filter { $0 == SoundRouter.sinkName }.count
            outcome.misshapen = first.misshapen + second.misshapen
            PrivatePulse.end(player)  // SIGKILL: pacat drains on SIGTERM, and /dev/zero never ends
            return outcome
        }
    }
}
