import DeckDesktop
import DeckKit
import Synchronization
import Testing

@testable import DeckActions

/// What a fake host saw: each key step's label and each delay, in order.
private final class StepLog: Sendable {
    let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private func key(_ name: String) -> MultiStep { .key(Button(label: name, kind: .command(name))) }

@Suite struct MultiActionRunnerTests {
    /// Keys run as pressed and delays are asked of the clock as given, in the order of the steps.
    @Test func stepsRunInOrderWithTheirDelays() async {
        let log = StepLog()
        let runner = MultiActionRunner(
            runKey: {
                log.add($0.label)
                return .ok
            },
            sleep: { log.add("sleep \($0.components.seconds)s \($0.components.attoseconds / 1_000_000_000_000_000)ms") }
        )
        let result = await runner.run([
            key("a"), .delay(milliseconds: 250), key("b"), .delay(milliseconds: 1500), key("c"),
        ])
        #expect(result == .ok)
        #expect(log.all == ["a", "sleep 0s 250ms", "b", "sleep 1s 500ms", "c"])
    }

    @Test func theFirstFailureStopsTheRestAndIsNamed() async {
        let log = StepLog()
        let runner = MultiActionRunner(
            runKey: { button in
                log.add(button.label)
                return button.label == "c" ? .failed("no terminal found") : .ok
            },
            sleep: { _ in })
        let result = await runner.run([key("a"), .delay(milliseconds: 10), key("c"), key("d"), key("e")])
        #expect(result == .failed("step 3 of 5: no terminal found"))
        #expect(log.all == ["a", "c"])
    }

    /// A command step counts once it has ended: its exit status can stop the rest.
    @Test func aStepThatRunsOnIsAwaited() async {
        let log = StepLog()
        let runner = MultiActionRunner(
            runKey: { button in
                guard button.label == "build" else {
                    log.add(button.label)
                    return .ok
                }
                return .running(
                    ActionOutcome {
                        log.add("build ended")
                        return .failed("exit 2")
                    })
            },
            sleep: { _ in })
        #expect(await runner.run([key("build"), key("notify")]) == .failed("step 1 of 2: exit 2"))
        #expect(log.all == ["build ended"])
    }

    /// Cancelled while a delay waits (a second press of the key): the steps after it never run.
    @Test func cancellingDuringADelayStopsTheRest() async {
        let log = StepLog()
        let (inDelay, delayStarted) = AsyncStream.makeStream(of: Void.self)
        let runner = MultiActionRunner(
            runKey: {
                log.add($0.label)
                return .ok
            },
            sleep: { duration in
                delayStarted.yield()
                try await Task.sleep(for: .seconds(3600))
            })
        let run = Task { await runner.run([key("a"), .delay(milliseconds: 10_000), key("b"), key("c")]) }
        for await _ in inDelay { break }
        run.cancel()
        #expect(await run.value == .failed("cancelled before step 3 of 4"))
        #expect(log.all == ["a"])
    }

    @Test func cancellingInTheLastDelaySaysNothingWasLeft() async {
        let runner = MultiActionRunner(runKey: { _ in .ok }, sleep: { _ in throw CancellationError() })
        #expect(await runner.run([key("a"), .delay(milliseconds: 10)]) == .failed("cancelled after step 2 of 2"))
    }

    /// Cancelled while a key step runs: that step ends (its keys are already on their way), the next does not start.
    @Test func cancellingDuringAKeyStopsBeforeTheNext() async {
        let log = StepLog()
        let (inKey, keyStarted) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseKey) = AsyncStream.makeStream(of: Void.self)
        let runner = MultiActionRunner(
            runKey: { button in
                log.add(button.label)
                keyStarted.yield()
                for await _ in release { break }
                return .ok
            },
            sleep: { _ in })
        let run = Task { await runner.run([key("a"), key("b")]) }
        for await _ in inKey { break }
        run.cancel()
        releaseKey.yield()
        #expect(await run.value == .failed("cancelled before step 2 of 2"))
        #expect(log.all == ["a"])
    }
}
