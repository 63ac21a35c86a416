import DeckKit

/// The seam through which a media key reaches the music player (DESIGN.md#seams): MPRIS on the session bus in the
/// daemon (`MediaControl.mpris()` in DeckWayland, which owns the bus), a recording fake in tests.
public struct MediaControl: Sendable {
    /// What the key shows: the player a press would reach and its status, or nil when there is none.
    public struct Now: Hashable, Sendable {
        /// The player's MPRIS name without `org.mpris.MediaPlayer2.` (`vlc`, `spotify`, `firefox.instance_1_2`).
        public var player: String
        public var status: PlaybackStatus
        /// What it plays (MPRIS `Metadata` and `Position`); nil fields when the player does not say.
        public var track: Track

        public init(player: String, status: PlaybackStatus, track: Track = Track()) {
            self.player = player
            self.status = status
            self.track = track
        }
    }

    /// The track a player plays, as its `Metadata` (`xesam:title`, `xesam:artist`, `xesam:album`, `mpris:artUrl`,
    /// `mpris:length`) and `Position` say.
    public struct Track: Hashable, Sendable {
        public var title: String?
        /// Its artists, joined by ", ".
        public var artist: String?
        public var album: String?
        /// The album art's address as the player gives it (`file:///…`, `https://…`).
        public var artURL: String?
        /// Seconds into the track, and its length in seconds.
        public var position: Double?
        public var length: Double?

        public init(
            title: String? = nil, artist: String? = nil, album: String? = nil, artURL: String? = nil,
            position: Double? = nil, length: Double? = nil
        ) {
            self.title = title
            self.artist = artist
            self.album = album
            self.artURL = artURL
            self.position = position
            self.length = length
        }
    }

    /// Sends `action` to the chosen player; `"no media player"` when there is none.
    public var press: @Sendable (MediaAction) async -> ActionResult
    /// Looks at the players again and answers the chosen one (the host looks on every `changes` call).
    public var now: @Sendable () async -> Now?
    /// Calls `changed` (on a thread of its own) whenever a player announces a change (its properties, a seek) or a
    /// player comes or goes, for as long as the process lives; false when there is nothing to follow (no bus).
    public var follow: @Sendable (_ changed: @escaping @Sendable () -> Void) -> Bool

    public init(
        press: @escaping @Sendable (MediaAction) async -> ActionResult, now: @escaping @Sendable () async -> Now?,
        follow: @escaping @Sendable (_ changed: @escaping @Sendable () -> Void) -> Bool = { _ in false }
    ) {
        self.press = press
        self.now = now
        self.follow = follow
    }

    /// The answer when no player is on the bus.
    public static let noPlayer = "no media player"

    /// Records each action and answers `result`; `now` answers `state`.
    public static func fake(
        result: ActionResult = .ok, state: Now? = nil, record: @escaping @Sendable (MediaAction) -> Void = { _ in }
    ) -> MediaControl {
        MediaControl(
            press: { action in
                record(action)
                return result
            }, now: { state })
    }

    /// Traps if pressed: for tests that must never reach a player. `now` answers nil (no player), so a host
    /// built with it still starts.
    public static let unimplemented = MediaControl(
        press: { _ in preconditionFailure("MediaControl.press called in a test that does not expect it") },
        now: { nil })
}
