import DeckKit

/// What `ActionRunner` launches: the keys whose press starts a program or hands something to the desktop's
/// handlers. Record, hotkey, text, multi-action and toggle keys are the host's own work (its recording, its
/// typing lane, each held key through its own path), folder and page keys the device's; none becomes a launch.
public enum Launch: Hashable, Sendable {
    /// An XDG desktop entry.
    case app(appId: String)
    /// A line in the user's interactive shell; `label` names its log file.
    case command(String, label: String)
    /// A new terminal window in `directory` (`""` = home).
    case terminal(directory: String)
    /// A URL, file or folder for the desktop's default handler.
    case open(String)
    /// A key of the media player that changed state last.
    case media(MediaAction)

    /// The launch `button` stands for; nil for the keys the host runs itself.
    public init?(_ button: Button) {
        switch button.kind {
        case .app(let appId): self = .app(appId: appId)
        case .command(let line): self = .command(line, label: button.label)
        case .terminal(let directory): self = .terminal(directory: directory)
        case .open(let target): self = .open(target)
        case .media(let action): self = .media(action)
        // A now-playing tile plays or pauses what it shows.
        case .nowPlaying: self = .media(.playPause)
        case .record, .hotkey, .text, .micMute, .slider, .multi, .toggle, .folder, .page, .profile: return nil
        }
    }
}
