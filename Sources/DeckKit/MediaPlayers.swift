/// A media player's `PlaybackStatus` as MPRIS reports it.
public enum PlaybackStatus: String, Codable, Hashable, Sendable {
    case playing, paused, stopped

    /// `Playing`, `Paused`, `Stopped` (MPRIS spells them capitalised); anything else is nil.
    public init?(mpris: String) {
        switch mpris {
        case "Playing": self = .playing
        case "Paused": self = .paused
        case "Stopped": self = .stopped
        default: return nil
        }
    }
}

/// Which media player a media key reaches: the rule of docs/ARCHITECTURE.md "Media keys", as a value.
///
/// Fed the players on the bus and their status each time the host looks (`observe`), it remembers when each
/// one last changed. `current` is a playing player (the one that changed last, when several play), else the
/// player that changed last: a paused one the user just paused stays the one a play key resumes. A player seen
/// for the first time counts as a change; ties go to the bus name that sorts first, so the choice is stable.
public struct MediaPlayers: Hashable, Sendable {
    private struct Seen: Hashable, Sendable {
        var status: PlaybackStatus
        var changedAt: Int
    }

    private var players: [String: Seen] = [:]
    private var looks = 0

    /// No player seen yet.
    public init() {}

    /// The players on the bus now (bus name → status); a player missing from `statuses` has gone.
    public mutating func observe(_ statuses: [String: PlaybackStatus]) {
        looks += 1
        var next: [String: Seen] = [:]
        for (name, status) in statuses {
            if let seen = players[name], seen.status == status {
                next[name] = seen
            } else {
                next[name] = Seen(status: status, changedAt: looks)
            }
        }
        players = next
    }

    /// The player a media key reaches now, or nil when there is none.
    public var current: (name: String, status: PlaybackStatus)? {
        let playing = players.filter { $0.value.status == .playing }
        let candidates = playing.isEmpty ? players : playing
        let chosen = candidates.min { a, b in
            a.value.changedAt != b.value.changedAt ? a.value.changedAt > b.value.changedAt : a.key < b.key
        }
        return chosen.map { ($0.key, $0.value.status) }
    }
}
