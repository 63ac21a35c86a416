extension HostMessage {
    /// What media keys and now-playing tiles show (PROTOCOL §6 "What a media key shows"): the player the next press
    /// reaches, its status and what it plays.
    public struct MediaState: MessageBody {
        public static let type = "mediaState"

        /// `none` when no media player is on the host's session bus.
        public enum Status: String, Codable, Hashable, Sendable {
            case playing, paused, stopped, none
        }

        public var status: Status
        /// The player's MPRIS name (`vlc`, `spotify`); `""` with `none`.
        public var player: String
        /// The track's `xesam:title`, its artists joined by ", ", its `xesam:album`; absent when the player has none.
        public var title: String?
        public var artist: String?
        public var album: String?
        /// The album art (`mpris:artUrl` of a local file) as a PNG data URL within 144×144 px; absent without one.
        public var art: String?
        /// Seconds into the track when the host looked; a device adds the time since while `playing`.
        public var position: Double?
        /// The track's length in seconds (`mpris:length`).
        public var length: Double?

        public init(
            status: Status, player: String, title: String? = nil, artist: String? = nil, album: String? = nil,
            art: String? = nil, position: Double? = nil, length: Double? = nil
        ) {
            self.status = status
            self.player = status == .none ? "" : player
            self.title = title
            self.artist = artist
            self.album = album
            self.art = art
            self.position = position
            self.length = length
        }

        /// No player.
        public static let none = MediaState(status: .none, player: "")

        /// Whether a device that was sent `shown` `elapsed` seconds ago needs this state: anything but the position
        /// changed, or the position is more than 2 s from where `shown`'s would be now (a seek, a track restarted).
        /// A position that only moves on with the clock is not sent again.
        public func differs(from shown: MediaState, after elapsed: Double) -> Bool {
            var same = self
            same.position = shown.position
            guard same == shown else { return true }
            guard let position, let before = shown.position else { return position != shown.position }
            let expected = before + (shown.status == .playing ? elapsed : 0)
            return abs(position - expected) > 2
        }
    }
}
