import Foundation

/// Limits what an unauthenticated peer can make the host do: a token bucket for the rate plus a cap on
/// the total, so a flood of pre-auth messages costs the host little and ends in a close.
public struct FloodGuard: Equatable, Sendable {
    /// Messages allowed at once before refilling.
    public let burst: Double
    /// Messages per second refilled.
    public let perSecond: Double
    /// Messages allowed in total before authorization.
    public let total: Int

    private var tokens: Double
    private var last: Date?
    private var seen = 0

    public init(burst: Double = 40, perSecond: Double = 20, total: Int = 400) {
        self.burst = burst
        self.perSecond = perSecond
        self.total = total
        tokens = burst
    }

    /// Takes one message; false means the peer is flooding.
    public mutating func admit(now: Date) -> Bool {
        if let last { tokens = min(burst, tokens + max(0, now.timeIntervalSince(last)) * perSecond) }
        last = now
        seen += 1
        guard seen <= total, tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
