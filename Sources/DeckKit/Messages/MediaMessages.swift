extension HostMessage {
    /// What a media key shows (PROTOCOL §6 "Layout"): the player the next press reaches and its status.
    public struct MediaState: MessageBody {
        public static let type = "mediaState"

        /// `none` when no media player is on the host's session bus.
        public enum Status: String, Codable, Hashable, Sendable {
            case playing, paused, stopped, none
        }

        public var status: Status
        /// The player's MPRIS name (`vlc`, `spotify`); `""` with `none`.
        public var player: String

        public init(status: Status, player: String) {
            self.status = status
            self.player = status == .none ? "" : player
        }

        /// No player.
        public static let none = MediaState(status: .none, player: "")
    }
}
