import DeckKit
import Foundation
import Testing

/// Live looks (issue 23): state lines, the coalescing to 10 a second per key and the restart back-off.
@Test func aStateLineSetsTheFieldsItNamesAndNullClearsOne() throws {
    let look = try LiveLook().applying(line: #"{"label":"42%","color":"red","icon":"🎙","badge":3,"state":"on"}"#)
    #expect(look == LiveLook(label: "42%", color: "red", icon: .emoji("🎙"), badge: "3", state: true))
    let next = try look.applying(line: #"{"badge":null,"value":0.25}"#)
    #expect(next == LiveLook(label: "42%", color: "red", icon: .emoji("🎙"), state: true, value: 0.25))
}

@Test(arguments: [
    ("not json", "invalid JSON: not json"), ("[1]", "a state line is one JSON object"),
    (#"{"badge":"12345"}"#, "badge is a number or ≤ 4 characters"), (#"{"value":2}"#, "value is a number from 0 to 1"),
    (#"{"state":"maybe"}"#, "state is on or off"),
    (#"{"lable":"x"}"#, "unknown field lable (label, color, icon, badge, state, value)"),
])
func aBadStateLineIsRefusedWithItsReason(line: String, reason: String) {
    #expect(throws: LiveLook.LineError(reason)) { try LiveLook().applying(line: line) }
}

@Test func lookCoalescerSendsAtMostOneLookPerKeyEvery100Milliseconds() {
    var coalescer = LookCoalescer<Int>()
    #expect(coalescer.offer(1, now: 0) == .now)
    #expect(coalescer.offer(2, now: 0.01) == .now, "another key is not held back")
    #expect(coalescer.offer(1, now: 0.03) == .later(at: 0.1, alreadyPlanned: false))
    #expect(
        coalescer.offer(1, now: 0.05) == .later(at: 0.1, alreadyPlanned: true), "the latest waits for the same flush")
    coalescer.flushed(1, now: 0.1)
    #expect(coalescer.offer(1, now: 0.15) == .later(at: 0.2, alreadyPlanned: false))
    coalescer.flushed(1, now: 0.2)
    #expect(coalescer.offer(1, now: 0.5) == .now)
    // 100 looks in one second at 1-ms steps: at most 10 go out at once plus the flushes, one per 100 ms.
    var sent = 0
    var plannedAt: Double?
    var clock = LookCoalescer<Int>()
    for step in 0..<1000 {
        let now = Double(step) / 1000
        if let at = plannedAt, now >= at {
            clock.flushed(7, now: now)
            sent += 1
            plannedAt = nil
        }
        switch clock.offer(7, now: now) {
        case .now: sent += 1
        case .later(let at, _): plannedAt = at
        }
    }
    #expect(sent <= 11)
    #expect(plannedAt != nil, "the last look is still planned, so it arrives")
}

@Test func restartsBackOffFromOneSecondDoublingToAMinute() {
    var backoff = RestartBackoff()
    let waits = (0..<9).map { _ in backoff.failed() }
    #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
    backoff.succeeded()
    #expect(backoff.failed() == 1)
}

@Test func keyStateCarriesTheLookInTheKeysIconForm() throws {
    let message = HostMessage.keyState(
        .init(profile: "Default", page: 0, index: 2, look: LiveLook(label: "x", icon: .app(appId: "vlc.desktop"))))
    let text = String(decoding: message.encode(), as: UTF8.self)
    #expect(
        text
            == #"{"index":2,"look":{"icon":{"app":"vlc.desktop"},"label":"x"},"page":0,"profile":"Default","type":"keyState"}"#
    )
    #expect(try HostMessage.decode(Data(text.utf8)) == message)
}
