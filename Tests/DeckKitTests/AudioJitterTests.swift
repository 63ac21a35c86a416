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

/// The shared cases in `Tests/Fixtures/rules/audio-jitter.json` (the web client's `jitter.js` runs the same).
private struct JitterFixture: Decodable {
    struct Case: Decodable {
        var name: String
        var steps: [Step]
        var expect: Expect
    }
    struct Expect: Decodable {
        var queued: Double
        var isPlaying: Bool
        var isDropping: Bool
    }
    /// `["arrive", s, decision]`, `["played", s, ranDry]` or `["repeat", n, step]`.
    indirect enum Step: Decodable {
        case arrive(Double, String?)
        case played(Double, Bool)
        case repeated(Int, Step)

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            switch try items.decode(String.self) {
            case "arrive": self = .arrive(try items.decode(Double.self), try items.decodeIfPresent(String.self))
            case "played": self = .played(try items.decode(Double.self), try items.decode(Bool.self))
            default: self = .repeated(try items.decode(Int.self), try items.decode(Step.self))
            }
        }
    }
    var cases: [Case]
}

private func run(_ step: JitterFixture.Step, on jitter: inout AudioJitter, _ name: String) {
    switch step {
    case .arrive(let seconds, let wanted):
        let decision = jitter.arrive(seconds)
        if let wanted { #expect("\(decision)" == wanted, "\(name)") }
    case .played(let seconds, let ranDry):
        #expect(jitter.played(seconds) == ranDry, "\(name)")
    case .repeated(let times, let inner):
        for _ in 0..<times { run(inner, on: &jitter, name) }
    }
}

@Test func jitterSharedFixture() throws {
    let fixture = try RuleFixture.load("audio-jitter.json", as: JitterFixture.self)
    #expect(fixture.cases.count >= 9)
    for item in fixture.cases {
        var jitter = AudioJitter()
        for step in item.steps { run(step, on: &jitter, item.name) }
        #expect(RuleFixture.close(jitter.queued, item.expect.queued), "\(item.name)")
        #expect(
            jitter.isPlaying == item.expect.isPlaying && jitter.isDropping == item.expect.isDropping, "\(item.name)")
    }
}
