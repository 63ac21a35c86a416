import Foundation

/// What a connection that has not authorized yet may take from the host (DESIGN.md#transport, "the front door";
/// anchors: OpenSSH's MaxStartups and LoginGraceTime).
public struct FrontDoorLimits: Equatable, Sendable {
    /// Largest message before authorization; a larger one closes with 1009 before it is buffered.
    public var maxMessageSize: Int = 64 * 1024
    /// Time from the WebSocket handshake to authorization; then the connection is closed with 1008.
    public var authorizeWithin: Duration = .seconds(30)
    /// Strangers from one address that may wait at once; one more closes that address's oldest (1013).
    public var perAddress: Int = 8
    /// Strangers that may wait at once in all; one more closes the oldest of the busiest address (1013).
    /// Known devices wait apart and count in neither (`WaitingRoom`).
    public var total: Int = 64
    /// Bytes per second that the waiting connections of one address may send, beyond a first `burstBytes`;
    /// past that the host stops reading them for a while. A real handshake is a few KiB, but a stranger
    /// reconnecting at once after each flood close could otherwise keep the host decoding 64 KiB hellos
    /// while a device's press waits behind them.
    public var bytesPerSecond: Int = 128 * 1024
    /// What one address may send at once before `bytesPerSecond` applies: two messages of the largest size.
    public var burstBytes: Int = 128 * 1024
    /// What an overspent address's bucket holds again before its paused strangers are read again (nil: a quarter
    /// second of `bytesPerSecond`; see `AddressBudget.charge`). `make bench` sets 1 to measure the old rule.
    public var resumeBytes: Int?

    /// The limits of DESIGN.md#transport.
    public init() {}

    /// Test-only override, e.g. `grace=2,message=1024,perAddress=3,total=5,bytesPerSecond=4096,resumeBytes=1` (any
    /// subset, `grace` in seconds): live tests use it so a 30 s deadline need not be played out in full. Unknown
    /// keys and values that are not positive numbers are ignored.
    public init(overrides: String) {
        for pair in overrides.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Double(parts[1]), value > 0 else { continue }
            switch parts[0] {
            case "grace": authorizeWithin = .milliseconds(Int(value * 1000))
            case "message": maxMessageSize = Int(value)
            case "perAddress": perAddress = Int(value)
            case "total": total = Int(value)
            case "bytesPerSecond": bytesPerSecond = Int(value)
            case "resumeBytes": resumeBytes = Int(value)
            default: continue
            }
        }
    }

    /// The environment variable `init(overrides:)` is read from by the daemon.
    public static let environmentKey = "TOUCHDECK_TEST_FRONT_DOOR"
}

/// Close codes and reasons the front door uses (RFC 6455 §7.4.1).
enum FrontDoorClose {
    /// The connection made room for a newer one (`WaitingRoom.Eviction`).
    static let tryAgainLater: UInt16 = 1013
    /// The connection did not authorize in time.
    static let policyViolation: UInt16 = 1008
    static let tooSlow = "did not authorize in time"

    /// The reason text sent with an eviction's 1013.
    static func reason(_ why: WaitingRoom.Eviction.Reason) -> String {
        switch why {
        case .addressFull: "too many connections waiting from this address; the oldest made room"
        case .roomFull: "too many connections waiting; the busiest address made room"
        case .replaced: "a newer connection of this device is waiting"
        }
    }
}

/// How much the waiting connections of each address may send: a token bucket in bytes per address, kept after
/// its connections leave (until it has refilled) so that reconnecting does not start a stranger afresh.
struct AddressBudget: Equatable {
    let limits: FrontDoorLimits
    private var buckets: [String: Bucket] = [:]

    struct Bucket: Equatable {
        var bytes: Double
        var at: ContinuousClock.Instant
    }

    init(limits: FrontDoorLimits) { self.limits = limits }

    /// Charges `count` bytes read from `address` at `now`; returns how long to stop reading that connection
    /// (nil: keep reading). A pause lasts until the deficit is refilled and a quarter second's budget more
    /// (`resumeBytes`): lws reads 4 KiB at a time, so pausing only until the deficit was gone woke the service
    /// thread for every 4 KiB of a stranger kept at its budget (32 times a second, each wake-up with lws's
    /// sub-millisecond poll spin before its timer), and an authorized press's p99 rose fivefold under two such
    /// floods. Now it wakes four times a second per address and reads 32 KiB each time.
    mutating func charge(_ count: Int, from address: String, now: ContinuousClock.Instant) -> Duration? {
        forgetRefilled(now: now)
        var bucket = refilled(buckets[address], now: now)
        bucket.bytes -= Double(count)
        buckets[address] = bucket
        guard bucket.bytes < 0 else { return nil }
        let owed = -bucket.bytes + Double(resumeBytes)
        return .milliseconds(Int((owed / Double(limits.bytesPerSecond) * 1000).rounded(.up)))
    }

    /// What an address's bucket holds again when a paused connection is read again: a quarter second's budget
    /// unless the limits say otherwise, at most the burst.
    var resumeBytes: Int { min(limits.resumeBytes ?? limits.bytesPerSecond / 4, limits.burstBytes) }

    /// Addresses whose bucket is tracked (for tests).
    var tracked: Set<String> { Set(buckets.keys) }

    private func refilled(_ bucket: Bucket?, now: ContinuousClock.Instant) -> Bucket {
        guard let bucket else { return Bucket(bytes: Double(limits.burstBytes), at: now) }
        let elapsed =
            Double((now - bucket.at).components.seconds)
            + Double((now - bucket.at).components.attoseconds) / 1e18
        let bytes = min(Double(limits.burstBytes), bucket.bytes + max(0, elapsed) * Double(limits.bytesPerSecond))
        return Bucket(bytes: bytes, at: now)
    }

    /// A full bucket is the same as none; dropping those keeps the table as small as the addresses in play.
    private mutating func forgetRefilled(now: ContinuousClock.Instant) {
        guard buckets.count > 256 else { return }
        buckets = buckets.filter { refilled($0.value, now: now).bytes < Double(limits.burstBytes) }
    }
}
