import CDeckShim
import CGio
import DeckDesktop
import DeckKit
import Dispatch

extension MediaControl {
    /// The session bus's MPRIS players (docs/ARCHITECTURE.md "Media keys"): each press and each look lists the
    /// `org.mpris.MediaPlayer2.*` names, reads their `PlaybackStatus` and picks one by `MediaPlayers`' rule, then
    /// reads the chosen one's `Metadata` and `Position`. The bus calls block, so they run on a queue of their own,
    /// never on the host's actor or the cooperative pool. Players' signals are followed on `BusLoop`'s thread.
    public static func mpris() -> MediaControl {
        let players = MprisPlayers()
        return MediaControl(
            press: { action in await players.onQueue { $0.press(action) } },
            now: { await players.onQueue { $0.look() } },
            follow: { changed in MprisSignals.follow(changed) })
    }
}

/// The players seen on the bus and when each last changed. `@unchecked Sendable`: `seen` is touched only on
/// `queue` (`onQueue` is the one way in).
final class MprisPlayers: @unchecked Sendable {
    static let prefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    private let queue = DispatchQueue(label: "touchdeck.mpris")
    private var seen = MediaPlayers()

    func onQueue<T: Sendable>(_ work: @escaping @Sendable (MprisPlayers) -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work(self)) }
        }
    }

    /// The player a press would reach now.
    func look() -> MediaControl.Now? {
        let bus = try? SessionBus()
        seen.observe(bus.map(Self.statuses) ?? [:])
        guard let (name, status) = seen.current else { return nil }
        let track = bus.map { Self.track(of: name, on: $0) } ?? MediaControl.Track()
        return MediaControl.Now(player: Self.shortName(name), status: status, track: track)
    }

    /// Calls the action's method on the chosen player. No bus counts as no player: there is nothing to reach.
    func press(_ action: MediaAction) -> ActionResult {
        guard let bus = try? SessionBus() else { return .failed(MediaControl.noPlayer) }
        seen.observe(Self.statuses(bus))
        guard let (name, _) = seen.current else { return .failed(MediaControl.noPlayer) }
        do {
            try bus.call(name, Self.path, Self.player, action.mprisMethod, timeout: 5)
            return .ok
        } catch {
            return .failed("\(Self.shortName(name)): \(Self.describe(error))")
        }
    }

    /// Every MPRIS name on the bus with its status. A player that does not answer within 2 s is left out; a
    /// status outside MPRIS's three counts as stopped (it can still be pressed).
    static func statuses(_ bus: SessionBus) -> [String: PlaybackStatus] {
        guard
            let reply = try? bus.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", timeout: 2),
            reply.isOfType("(as)")
        else { return [:] }
        let names = reply.child(0)
        var statuses: [String: PlaybackStatus] = [:]
        for index in 0..<Int(g_variant_n_children(names.raw)) {
            let name = names.child(index).string
            guard name.hasPrefix(prefix) else { continue }
            guard
                let answer = try? bus.call(
                    name, path, "org.freedesktop.DBus.Properties", "Get", deck_gv_two_strings(player, "PlaybackStatus"),
                    timeout: 2),
                answer.isOfType("(v)")
            else { continue }
            let value = answer.child(0).unboxed
            statuses[name] = value.isOfType("s") ? PlaybackStatus(mpris: value.string) ?? .stopped : .stopped
        }
        return statuses
    }

    /// `org.mpris.MediaPlayer2.vlc` → `vlc`, the name playerctl shows.
    static func shortName(_ busName: String) -> String {
        busName.hasPrefix(prefix) ? String(busName.dropFirst(prefix.count)) : busName
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DBusError {
        case .failed(_, let message): message
        case .noBus(let message), .badReply(let message), .timedOut(let message): message
        case nil: "\(error)"
        }
    }
}
