import Foundation

/// The connections that have not authorized yet: who may come in, who must make room, and whose time is up.
/// A value with no clock of its own; the service thread passes `now` and carries out the evictions it returns.
///
/// Two pools (PROTOCOL §0, "the front door"):
/// - **Strangers**, in arrival order. A newcomer always gets in. When its address then has more than
///   `perAddress` waiting, that address's oldest leaves; when more than `total` strangers wait, the oldest of
///   the busiest address leaves (ties: the address whose oldest has waited longest). So a flood from many
///   addresses pushes itself out before it reaches an address with one or two connections waiting, and a
///   flood from one address only ever pushes out its own.
/// - **Known devices**: a connection that named a paired device (in its upgrade, or in its first `hello` or
///   `authStart`) waits in a reserve of one place per device id, where strangers never reach it; a newer
///   connection naming the same device replaces the older. The reserve is as large as the list of paired
///   devices, which only the user at the computer grows.
struct WaitingRoom: Equatable {
    /// A connection the service thread must close (1013) to carry out a change.
    struct Eviction: Equatable {
        enum Reason: Equatable {
            /// Its address had more than `perAddress` strangers waiting; it was the address's oldest.
            case addressFull
            /// More than `total` strangers were waiting; it was the oldest of the busiest address.
            case roomFull
            /// A newer connection named the same device.
            case replaced
        }

        let id: ConnectionID
        let reason: Reason
    }

    struct Entry: Equatable {
        let id: ConnectionID
        let address: String
        let deadline: ContinuousClock.Instant
    }

    let limits: FrontDoorLimits
    /// Strangers in arrival order, so the first entry is the oldest.
    private(set) var strangers: [Entry] = []
    /// How many strangers wait per address.
    private var counts: [String: Int] = [:]
    /// The one waiting connection of each known device that has one.
    private(set) var devices: [String: Entry] = [:]

    init(limits: FrontDoorLimits) { self.limits = limits }

    /// A connection from `address` finished its WebSocket handshake at `now`; `device` is the paired device it
    /// named in its upgrade, if any (already checked to be known).
    mutating func admit(
        _ id: ConnectionID, address: String, device: String? = nil, now: ContinuousClock.Instant
    ) -> [Eviction] {
        let entry = Entry(id: id, address: address, deadline: now + limits.authorizeWithin)
        if let device { return reserve(entry, for: device) }
        strangers.append(entry)
        counts[address, default: 0] += 1
        if counts[address, default: 0] > limits.perAddress {
            return [evictOldest(of: address, .addressFull)]
        }
        if strangers.count > limits.total, let busiest = busiestAddress() {
            return [evictOldest(of: busiest, .roomFull)]
        }
        return []
    }

    /// A waiting stranger's `hello` or `authStart` named the known `device`: it moves to that device's place
    /// in the reserve, keeping its deadline. Nothing changes for a connection that is not a waiting stranger.
    mutating func claim(_ id: ConnectionID, device: String) -> [Eviction] {
        guard let index = strangers.firstIndex(where: { $0.id == id }) else { return [] }
        let entry = strangers.remove(at: index)
        uncount(entry.address)
        return reserve(entry, for: device)
    }

    /// The connection authorized or closed; it no longer waits.
    mutating func leave(_ id: ConnectionID) {
        if let index = strangers.firstIndex(where: { $0.id == id }) {
            uncount(strangers.remove(at: index).address)
        } else if let device = devices.first(where: { $0.value.id == id })?.key {
            devices[device] = nil
        }
    }

    /// Whether `id` is still waiting to authorize, in either pool.
    func isWaiting(_ id: ConnectionID) -> Bool { entry(of: id) != nil }

    /// Whether `id` waits as a stranger (it counts against its address's byte budget).
    func isStranger(_ id: ConnectionID) -> Bool { strangers.contains { $0.id == id } }

    /// When `id` must have authorized, if it is waiting.
    func deadline(of id: ConnectionID) -> ContinuousClock.Instant? { entry(of: id)?.deadline }

    /// Removes and returns every connection whose time is up at `now`: strangers oldest first, then devices.
    mutating func expire(now: ContinuousClock.Instant) -> [ConnectionID] {
        let late = strangers.filter { $0.deadline <= now }
        for entry in late { uncount(entry.address) }
        strangers.removeAll { $0.deadline <= now }
        let lateDevices = devices.filter { $0.value.deadline <= now }
        for device in lateDevices.keys { devices[device] = nil }
        return late.map(\.id) + lateDevices.values.sorted { $0.id.rawValue < $1.id.rawValue }.map(\.id)
    }

    private mutating func reserve(_ entry: Entry, for device: String) -> [Eviction] {
        let older = devices[device]
        devices[device] = entry
        guard let older, older.id != entry.id else { return [] }
        return [Eviction(id: older.id, reason: .replaced)]
    }

    private func entry(of id: ConnectionID) -> Entry? {
        strangers.first { $0.id == id } ?? devices.values.first { $0.id == id }
    }

    /// The address with the most strangers waiting; of those tied, the one whose oldest came first.
    private func busiestAddress() -> String? {
        var best: (address: String, count: Int)?
        var seen: Set<String> = []
        for entry in strangers where seen.insert(entry.address).inserted {
            let count = counts[entry.address, default: 0]
            if count > best?.count ?? 0 { best = (entry.address, count) }
        }
        return best?.address
    }

    private mutating func evictOldest(of address: String, _ reason: Eviction.Reason) -> Eviction {
        // The address has at least one stranger: the caller counted it.
        let index = strangers.firstIndex { $0.address == address }!
        let entry = strangers.remove(at: index)
        uncount(address)
        return Eviction(id: entry.id, reason: reason)
    }

    private mutating func uncount(_ address: String) {
        let left = counts[address, default: 1] - 1
        counts[address] = left > 0 ? left : nil
    }
}
