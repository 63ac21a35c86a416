import DeckKit

/// The seam through which a media key reaches the music player (DESIGN.md#seams): MPRIS on the session bus in the
/// daemon (`MediaControl.mpris()` in DeckWayland, which owns the bus), a recording fake in tests.
public struct MediaControl: Sendable {
    /// What the key shows: the player a press would reach and its status, or nil when there is none.
    public struct Now: Hashable, Sendable {
        /// The player's MPRIS name without `org.mpris.MediaPlayer2.` (`vlc`, `spotify`, `firefox.instance_1_2`).
        public var player: String
        public var status: PlaybackStatus

        public init(player: String, status: PlaybackStatus) {
            self.player = player
            self.status = status
        }
    }

    /// Sends `action` to the chosen player; `"no media player"` when there is none.
    public var press: @Sendable (MediaAction) async -> ActionResult
    /// Looks at the players again and answers the chosen one (the host polls this for `mediaState`).
    public var now: @Sendable () async -> Now?

    public init(
        press: @escaping @Sendable (MediaAction) async -> ActionResult, now: @escaping @Sendable () async -> Now?
    ) {
        self.press = press
        self.now = now
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
