import DeckSound
import Foundation
import Testing

/// `SoundCapture` against the private PulseAudio of `scripts/with-desktop` (fails, never skips, outside it):
/// two consumers share one routing and one recording, the first one out leaves both running for the other,
/// and the last one out puts the speakers back. The blocking parts run on a thread of their own, not the
/// cooperative pool.
@Suite(.serialized) struct SoundCaptureLiveTests {
    static func pactl(_ arguments: String...) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pactl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
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

    static func waitFor(_ check: () -> Bool) -> Bool {
        for _ in 0..<500 where !check() { Thread.sleep(forTimeInterval: 0.01) }
        return check()
    }

    @Test func twoConsumersShareOneRoutingAndTheLastOneOutRestores() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["PULSE_SERVER"], "run under scripts/with-desktop")
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
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        player.arguments = ["pacat", "--raw", "--rate=48000", "--channels=2", "--format=s16le"]
        player.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        let capture = SoundCapture(store: RoutingRecordStore.memory().0) { _ in }
        let (first, second) = (Counter(), Counter())
        let (a, errorA) = started(capture, first)
        let (b, errorB) = started(capture, second)
        outcome.errors = [errorA, errorB]
        try? player.run()
        outcome.routedSinks = sinkNames.filter { $0 == SoundRouter.sinkName }.count
        outcome.defaultWhileRouted = pactl("get-default-sink")
        outcome.bothHeard = waitFor { first.count > 20 && second.count > 20 }
        a.cancel()
        capture.settle()
        let firstCount = first.count
        let secondCount = second.count
        outcome.secondKeptHearing = waitFor { second.count > secondCount + 20 }
        outcome.firstStopped = first.count == firstCount
        outcome.stillRoutedForTheSecond = sinkNames.contains(SoundRouter.sinkName)
        b.cancel()
        capture.settle()
        outcome.defaultAfter = pactl("get-default-sink")
        outcome.routedSinksAfter = sinkNames.filter { $0 == SoundRouter.sinkName }.count
        outcome.misshapen = first.misshapen + second.misshapen
        // pacat drains on SIGTERM, and /dev/zero never ends.
        kill(player.processIdentifier, SIGKILL)
        player.waitUntilExit()
        return outcome
    }
}
