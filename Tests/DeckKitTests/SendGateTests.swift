import DeckKit
import Testing

// Results are collected into arrays first: #expect cannot call a mutating method on the gate.

@Test func sendGateWaitsForKeyframeAfterDrop() {
    // A frame that refers to a dropped frame decodes as garbage: drop until a keyframe, ask for one once.
    var gate = SendGate(limit: 1)
    var steps: [Bool] = []
    steps.append(gate.begin(keyframe: true))
    steps.append(gate.begin(keyframe: false))
    steps.append(gate.claimKeyframeRequest())
    steps.append(gate.claimKeyframeRequest())
    gate.finish()
    steps.append(gate.begin(keyframe: false))
    steps.append(gate.begin(keyframe: true))
    gate.finish()
    steps.append(gate.begin(keyframe: false))
    #expect(steps == [true, false, true, false, false, true, true])
}

@Test func gateLimitFollowsFps() {
    let limits = [1, 14, 15, 29, 30, 45, 60, 120, 0].map(SendGate.limit(forFPS:))
    #expect(limits == [1, 1, 1, 1, 2, 3, 4, 8, 1])
    #expect(SendGate(fps: 60).limit == 4)
}

@Test func changingLimitKeepsInFlight() {
    var gate = SendGate(limit: 2)
    let first = [gate.begin(keyframe: true), gate.begin(keyframe: false)]
    gate.limit = 4
    let more = [gate.begin(keyframe: false), gate.begin(keyframe: false), gate.begin(keyframe: false)]
    #expect(first == [true, true])
    #expect(more == [true, true, false])
    #expect(gate.inFlight == 4)
}

@Test func oneKeyframeRequestPerDropEpisode() {
    var gate = SendGate(limit: 2)
    var requests = 0
    _ = gate.begin(keyframe: true)
    _ = gate.begin(keyframe: false)
    for _ in 0..<5 {
        _ = gate.begin(keyframe: false)
        if gate.claimKeyframeRequest() { requests += 1 }
        gate.finish()
    }
    #expect(requests == 1)
    #expect(gate.isWaitingForKeyframe)
    // The next episode asks again.
    let resumed = gate.begin(keyframe: true)
    _ = gate.begin(keyframe: false)
    _ = gate.begin(keyframe: false)
    let askedAgain = gate.claimKeyframeRequest()
    #expect(resumed)
    #expect(askedAgain)
}

@Test func droppedKeyframeAsksAgain() {
    // The keyframe that would end the episode was itself dropped; waiting for another one without
    // asking would stall until the safety interval.
    var gate = SendGate(limit: 1)
    let steps = [
        gate.begin(keyframe: true), gate.begin(keyframe: false), gate.claimKeyframeRequest(),
        gate.begin(keyframe: true), gate.claimKeyframeRequest(), gate.claimKeyframeRequest(),
    ]
    #expect(steps == [true, false, true, false, true, false])
}

@Test func finishNeverGoesBelowZero() {
    var gate = SendGate(limit: SendGate.audioLimit)
    gate.finish()
    #expect(gate.inFlight == 0)
    let sent = (0..<11).map { _ in gate.begin(keyframe: true) }
    #expect(sent == Array(repeating: true, count: 10) + [false])
}
