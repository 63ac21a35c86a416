import DeckKit
import Testing

private func arrive(_ jitter: inout AudioJitter, _ seconds: Double, times: Int) -> [AudioJitter.Decision] {
    (0..<times).map { _ in jitter.arrive(seconds) }
}

@Test func waitsForSixtyMsBeforeStarting() {
    var jitter = AudioJitter()
    #expect(arrive(&jitter, 0.02, times: 4) == [.queue, .queue, .queueAndStart, .queue])
    #expect(jitter.isPlaying)
}

@Test func overTwoHundredMsStartsDropping() {
    var jitter = AudioJitter()
    let decisions = arrive(&jitter, 0.02, times: 11)
    // Ten 0.02 s packets sum to 0.19999999999999998: that is 0.2, not above it.
    #expect(decisions.filter { $0 == .drop }.count == 1)
    #expect(decisions.last == .drop)
    #expect(abs(jitter.queued - 0.2) < 1e-9)
    #expect(jitter.isDropping)
}

@Test func tenTwentyMsPacketsCountAsTwoHundredMs() {
    var sum = 0.0
    for _ in 0..<10 { sum += 0.02 }
    #expect(sum != 0.2, "the float sum this rule guards against")
    var jitter = AudioJitter()
    #expect(!arrive(&jitter, 0.02, times: 10).contains(.drop))
}

@Test func sumsJustAboveABoundStillCountAsTheBound() {
    // Twenty 0.01 s packets sum to 0.20000000000000004; twelve 0.005 s to 0.05999999999999999.
    var full = AudioJitter()
    #expect(!arrive(&full, 0.01, times: 20).contains(.drop))
    var starting = AudioJitter()
    #expect(arrive(&starting, 0.005, times: 12).last == .queueAndStart)
}

@Test func dropsUntilBelowHundredMs() {
    var jitter = AudioJitter()
    _ = arrive(&jitter, 0.02, times: 10)
    var steps: [AudioJitter.Decision] = [jitter.arrive(0.02)]
    for _ in 0..<5 { _ = jitter.played(0.02) }
    steps.append(jitter.arrive(0.02))  // 0.1 queued: not below 0.1 yet
    _ = jitter.played(0.02)
    steps.append(jitter.arrive(0.02))  // 0.08 queued
    #expect(steps == [.drop, .drop, .queue])
    #expect(!jitter.isDropping)
}

@Test func emptyQueueWaitsAgain() {
    var jitter = AudioJitter()
    _ = arrive(&jitter, 0.03, times: 2)
    let ranDry = [jitter.played(0.03), jitter.played(0.03)]
    #expect(ranDry == [false, true])
    #expect(!jitter.isPlaying)
    #expect(arrive(&jitter, 0.03, times: 2) == [.queue, .queueAndStart])
}

/// The seed's table: situation → what the buffer does.
@Test(arguments: [
    ("empty, 0.06 s queued", [0.02, 0.02, 0.02], AudioJitter.Decision.queueAndStart),
    ("empty, 0.04 s queued", [0.02, 0.02], .queue),
    ("queue would pass 0.2 s", [0.1, 0.1, 0.01], .drop),
    ("queue reaches exactly 0.2 s", [0.1, 0.05, 0.05], .queue),
])
func jitterSeedTable(situation: String, packets: [Double], last: AudioJitter.Decision) {
    var jitter = AudioJitter()
    #expect(packets.map { jitter.arrive($0) }.last == last, "\(situation)")
}
