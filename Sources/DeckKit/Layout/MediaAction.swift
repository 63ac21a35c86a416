/// What a media key asks the music player to do (PROTOCOL §6 "Layout"), as MPRIS names it.
public enum MediaAction: String, Codable, CaseIterable, Hashable, Sendable {
    case playPause, next, previous, stop

    /// The method of `org.mpris.MediaPlayer2.Player` that does it.
    public var mprisMethod: String {
        switch self {
        case .playPause: "PlayPause"
        case .next: "Next"
        case .previous: "Previous"
        case .stop: "Stop"
        }
    }
}
