import Foundation

/// The host's PIN rules (PROTOCOL.md §3): one live PIN, 5 minutes, 5 tries, then a back-off that doubles per
/// dead PIN before a device's request may bring a new one. The clock is passed in.
///
/// A try is spent when a `pairStart` is accepted, not when its `pairConfirm` turns out wrong: whatever a
/// stranger sends (or leaves unconfirmed), a PIN allows at most 5 SPAKE2 runs.
public struct PairingGate: Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// How long a PIN lives.
    public static let pinLifetime = Duration.seconds(300)
    /// Accepted `pairStart`s a PIN allows, in total; only a successful pairing ends it sooner.
    public static let triesPerPin = 5
    /// Back-off after the first dead PIN.
    public static let firstBackoff = Duration.seconds(30)
    /// Longest back-off.
    public static let maxBackoff = Duration.seconds(3600)

    /// What a device's request for a PIN led to.
    public enum Request: Equatable, Sendable {
        /// A new PIN; show it to the host's user.
        case issued(String)
        /// A PIN is already live; nothing new to show.
        case alreadyLive
        /// A dead PIN's back-off is running; a new PIN may be issued after this many seconds.
        case backingOff(retryAfter: Int)
    }

    /// Why a pairing attempt is refused; maps one to one onto `pairingFailed`.
    public enum Refusal: Equatable, Sendable, Error {
        case noPin(retryAfter: Int?)
        case expired
        case wrongPin(remaining: Int)
    }

    /// The PIN a pairing attempt started with; a confirmation counts against that PIN only.
    public struct Ticket: Equatable, Sendable {
        let generation: Int
        /// The PIN to derive `w` from.
        public let pin: String
    }

    /// The part of the gate that outlives the process: how many PINs died in a row and until when a device's
    /// request may not bring a new one.
    public struct Backoff: Equatable, Sendable {
        /// PINs that died since the last successful pairing.
        public var deadPins: Int
        /// No PIN for a device's request before this instant.
        public var blockedUntil: Instant?

        /// A back-off as given.
        public init(deadPins: Int = 0, blockedUntil: Instant? = nil) {
            self.deadPins = deadPins
            self.blockedUntil = blockedUntil
        }
    }

    private struct LivePin {
        var pin: String
        var issuedAt: Instant
        var triesSpent = 0
        var generation: Int
        /// Issued for a device's request (not `touchdeck pair`): if it expires unused it dies like a PIN
        /// whose tries ran out, so a stranger asking again and again is not shown a new PIN every 5 minutes.
        var byRequest = false
    }

    private var live: LivePin?
    private var generation = 0
    /// Dead PINs and the wait they caused; the host saves it so that a restart does not lift it.
    public private(set) var backoff = Backoff()
    private let makePin: @Sendable () -> String

    /// A gate that draws PINs from `makePin` (random 6 digits unless a test or tool says otherwise), starting
    /// from a back-off a previous run left.
    public init(backoff: Backoff = Backoff(), makePin: @escaping @Sendable () -> String = PairingGate.randomPin) {
        self.backoff = backoff
        self.makePin = makePin
    }

    /// Takes up a back-off a previous run saved (the live PIN, if any, is kept).
    public mutating func restore(_ saved: Backoff) {
        backoff = saved
    }

    /// Six uniformly random decimal digits.
    public static func randomPin() -> String {
        // Rejection sampling keeps every PIN equally likely (2^32 is not a multiple of 10^6).
        while true {
            let value = SecureRandom.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if value < 4_294_000_000 { return String(format: "%06u", value % 1_000_000) }
        }
    }

    /// The live PIN, if any (for `touchdeck pair` and the notification).
    public func currentPin(now: Instant) -> String? {
        guard let live, !isExpired(live, now: now) else { return nil }
        return live.pin
    }

    /// A device asked to pair: issue a PIN unless one is live or the back-off forbids it.
    public mutating func requestPin(now: Instant) -> Request {
        if currentPin(now: now) != nil { return .alreadyLive }
        if let expired = live, expired.byRequest {
            // Nobody paired with the PIN the last request brought up: the back-off starts at its expiry.
            killPin(now: expired.issuedAt + Self.pinLifetime)
        }
        if let retryAfter = secondsLeft(now: now) { return .backingOff(retryAfter: retryAfter) }
        let pin = issuePin(now: now)
        live?.byRequest = true
        return .issued(pin)
    }

    /// `touchdeck pair`: always issues a new PIN, replacing a live one; the back-off does not apply.
    public mutating func issuePin(now: Instant) -> String {
        generation += 1
        let pin = makePin()
        live = LivePin(pin: pin, issuedAt: now, generation: generation)
        return pin
    }

    /// A well-formed `pairStart` arrived: spends one of the PIN's tries and gives the PIN to run SPAKE2 with,
    /// or says why there is none. A PIN whose tries are all spent dies here, as after 5 wrong confirmations.
    public mutating func ticket(now: Instant) -> Result<Ticket, Refusal> {
        guard let current = live else { return .failure(.noPin(retryAfter: secondsLeft(now: now))) }
        guard !isExpired(current, now: now) else {
            live = nil
            return .failure(.expired)
        }
        guard current.triesSpent < Self.triesPerPin else {
            killPin(now: now)
            return .failure(.noPin(retryAfter: secondsLeft(now: now)))
        }
        live?.triesSpent += 1
        return .success(Ticket(generation: current.generation, pin: current.pin))
    }

    /// A `pairConfirm` was checked. A right one uses the PIN up (nil: accepted); a wrong one reports the tries
    /// left (its own was spent by its `pairStart`) and kills the PIN when none are.
    public mutating func settle(_ ticket: Ticket, correct: Bool, now: Instant) -> Refusal? {
        guard let current = live, current.generation == ticket.generation else {
            return .noPin(retryAfter: secondsLeft(now: now))
        }
        guard !isExpired(current, now: now) else {
            live = nil
            return .expired
        }
        guard correct else {
            let remaining = max(Self.triesPerPin - current.triesSpent, 0)
            if remaining == 0 { killPin(now: now) }
            return .wrongPin(remaining: remaining)
        }
        live = nil
        // A successful pairing ends the run of failures, so the next dead PIN starts the back-off again at 30 s.
        backoff.deadPins = 0
        return nil
    }

    private mutating func killPin(now: Instant) {
        live = nil
        backoff.deadPins += 1
        backoff.blockedUntil = now + waitAfter(deadPins: backoff.deadPins)
    }

    /// 30 s, 60 s, 120 s, … capped at 1 h.
    func waitAfter(deadPins count: Int) -> Duration {
        let doublings = min(count - 1, 7)
        return min(Self.firstBackoff * (1 << doublings), Self.maxBackoff)
    }

    private func secondsLeft(now: Instant) -> Int? {
        guard let blockedUntil = backoff.blockedUntil, now < blockedUntil else { return nil }
        // No back-off is longer than maxBackoff; a clock that says otherwise jumped, and a wait beyond
        // Int64 seconds would trap in `components`.
        let left = min(blockedUntil - now, Self.maxBackoff).components
        return Int(left.seconds) + (left.attoseconds > 0 ? 1 : 0)
    }

    private func isExpired(_ pin: LivePin, now: Instant) -> Bool {
        now - pin.issuedAt >= Self.pinLifetime
    }
}
