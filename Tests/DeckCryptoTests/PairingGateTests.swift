import Foundation
import Testing

@testable import DeckCrypto

@Suite struct PairingGateTests {
    let t0 = ContinuousClock.now

    func gate(pins: [String] = ["111111", "222222", "333333", "444444"]) -> PairingGate {
        let box = PinQueue(pins)
        return PairingGate(makePin: { box.next() })
    }

    @Test func randomPinsAreSixDigits() {
        for _ in 0..<50 {
            let pin = PairingGate.randomPin()
            #expect(pin.count == 6 && pin.allSatisfy(\.isASCII) && pin.allSatisfy(\.isNumber))
        }
    }

    @Test func aRequestedPinThatExpiresUnusedBacksOffTheNextRequest() {
        // A stranger asking again and again used to bring up a new PIN (and a notification) every 5 minutes.
        var gate = gate()
        #expect(gate.requestPin(now: t0) == .issued("111111"))
        let expired = t0 + PairingGate.pinLifetime
        #expect(gate.requestPin(now: expired + .seconds(1)) == .backingOff(retryAfter: 29))
        #expect(gate.requestPin(now: expired + .seconds(31)) == .issued("222222"))
        // The second unused one doubles the wait, counted from its own expiry.
        let second = expired + .seconds(31) + PairingGate.pinLifetime
        #expect(gate.requestPin(now: second + .seconds(59)) == .backingOff(retryAfter: 1))
        #expect(gate.requestPin(now: second + .seconds(60)) == .issued("333333"))
        // `touchdeck pair` is never held back, and its PIN expiring unused does not count.
        var manual = self.gate()
        _ = manual.issuePin(now: t0)
        #expect(manual.requestPin(now: expired + .seconds(1)) == .issued("222222"))
    }

    @Test func fiveWrongTriesCountDownThenKillThePin() throws {
        var gate = gate()
        #expect(gate.requestPin(now: t0) == .issued("111111"))
        var remaining: [Int] = []
        for _ in 0..<5 {
            let ticket = try gate.ticket(now: t0).get()
            if case .wrongPin(let left) = gate.settle(ticket, correct: false, now: t0) { remaining.append(left) }
        }
        #expect(remaining == [4, 3, 2, 1, 0])
        #expect(gate.currentPin(now: t0) == nil)
        #expect(gate.ticket(now: t0) == .failure(.noPin(retryAfter: 30)))
    }

    @Test func everyTicketSpendsATryAndTheSixthKillsThePin() throws {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        let tickets = try (0..<5).map { _ in try gate.ticket(now: t0).get() }
        #expect(gate.backoff == PairingGate.Backoff())
        #expect(gate.ticket(now: t0) == .failure(.noPin(retryAfter: 30)))
        #expect(gate.backoff == PairingGate.Backoff(deadPins: 1, blockedUntil: t0 + .seconds(30)))
        // The tickets already out belong to a dead PIN: even a right confirmation does not pair.
        #expect(gate.settle(tickets[0], correct: true, now: t0) == .noPin(retryAfter: 30))
    }

    @Test func aWrongConfirmationReportsTheTriesTheStartsLeft() throws {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        let first = try gate.ticket(now: t0).get()
        _ = try gate.ticket(now: t0).get()
        _ = try gate.ticket(now: t0).get()
        #expect(gate.settle(first, correct: false, now: t0) == .wrongPin(remaining: 2))
        let last = try gate.ticket(now: t0).get()
        _ = try gate.ticket(now: t0).get()
        #expect(gate.settle(last, correct: false, now: t0) == .wrongPin(remaining: 0))
        #expect(gate.currentPin(now: t0) == nil)
    }

    @Test func aRestoredBackoffHoldsAndKeepsDoubling() {
        var gate = PairingGate(backoff: .init(deadPins: 2, blockedUntil: t0 + .seconds(50)), makePin: { "123456" })
        #expect(gate.requestPin(now: t0) == .backingOff(retryAfter: 50))
        #expect(gate.requestPin(now: t0 + .seconds(50)) == .issued("123456"))
        killPin(&gate, now: t0 + .seconds(50))
        #expect(gate.requestPin(now: t0 + .seconds(50)) == .backingOff(retryAfter: 120))
    }

    @Test func pinExpiresAfterFiveMinutes() throws {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        let ticket = try gate.ticket(now: t0 + .seconds(299)).get()
        #expect(gate.settle(ticket, correct: true, now: t0 + .seconds(300)) == .expired)
        _ = gate.requestPin(now: t0 + .seconds(301))
        #expect(gate.ticket(now: t0 + .seconds(602)) == .failure(.expired))
    }

    @Test func backoffDoublesPerDeadPinUpToAnHour() {
        var gate = gate(pins: Array(repeating: "123123", count: 20))
        var now = t0
        var waits: [Int] = []
        for _ in 0..<9 {
            guard case .issued = gate.requestPin(now: now) else { break }
            killPin(&gate, now: now)
            if case .backingOff(let wait) = gate.requestPin(now: now) { waits.append(wait) }
            now = now + .seconds(3600)
        }
        #expect(waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
    }

    @Test func requestDuringBackoffIssuesNothingButForcedIssueDoes() {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        killPin(&gate, now: t0)
        #expect(gate.requestPin(now: t0 + .seconds(10)) == .backingOff(retryAfter: 20))
        #expect(gate.requestPin(now: t0 + .seconds(30)) == .issued("222222"))
        killPin(&gate, now: t0 + .seconds(30))
        #expect(gate.issuePin(now: t0 + .seconds(31)) == "333333")
        #expect(gate.currentPin(now: t0 + .seconds(31)) == "333333")
    }

    @Test func rightConfirmationUsesThePinUp() throws {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        let ticket = try gate.ticket(now: t0).get()
        #expect(gate.settle(ticket, correct: true, now: t0) == nil)
        #expect(gate.ticket(now: t0) == .failure(.noPin(retryAfter: nil)))
    }

    @Test func confirmationForAReplacedPinDoesNotCount() throws {
        var gate = gate()
        _ = gate.requestPin(now: t0)
        let old = try gate.ticket(now: t0).get()
        _ = gate.issuePin(now: t0)
        #expect(gate.settle(old, correct: true, now: t0) == .noPin(retryAfter: nil))
        #expect(gate.currentPin(now: t0) == "222222")
    }

    private func killPin(_ gate: inout PairingGate, now: PairingGate.Instant) {
        for _ in 0..<PairingGate.triesPerPin {
            guard let ticket = try? gate.ticket(now: now).get() else { return }
            _ = gate.settle(ticket, correct: false, now: now)
        }
    }
}

/// Hands out fixed PINs in order, so tests know what the gate issued.
final class PinQueue: @unchecked Sendable {
    // Tests call it from one task at a time; the lock only keeps the checker honest.
    private let lock = NSLock()
    private var pins: [String]

    init(_ pins: [String]) { self.pins = pins }

    func next() -> String { lock.withLock { pins.isEmpty ? "000000" : pins.removeFirst() } }
}
