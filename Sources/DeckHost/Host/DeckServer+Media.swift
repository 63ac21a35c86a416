import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport

// What media keys show (PROTOCOL §6 "Layout"): the player a press reaches and its PlaybackStatus, looked at once a
// second off the actor (`MediaControl.now` runs its bus calls on a queue of its own) and sent when it changes.
extension DeckServer {
    /// How often the players are looked at. Polling, not PropertiesChanged: it also notices players that come and
    /// go, and the choice of player (`MediaPlayers`) needs every player's status anyway.
    static let mediaPollInterval = Duration.seconds(1)

    /// Follows the media players until the task is cancelled.
    func followMedia() async {
        let media = desktop.media
        while !Task.isCancelled {
            mediaChanged(Self.wire(await media.now()))
            try? await Task.sleep(for: Self.mediaPollInterval)
        }
    }

    /// A change reaches every authorized device that knows media keys (protocol 3), once per distinct state.
    func mediaChanged(_ state: HostMessage.MediaState) {
        guard state != mediaShown else { return }
        mediaShown = state
        for (id, _) in authorizedConnections where knowsMediaKeys(id) { sendSealed(.mediaState(state), to: id) }
    }

    /// A newly authorized device hears of a player; with none it needs no message (no `mediaState` means none).
    func sendMediaState(to id: ConnectionID) {
        guard mediaShown.status != .none, knowsMediaKeys(id) else { return }
        sendSealed(.mediaState(mediaShown), to: id)
    }

    private func knowsMediaKeys(_ id: ConnectionID) -> Bool {
        let device = connections[id]?.session.deviceProtocol ?? ProtocolVersion.legacy
        return ProtocolVersion.agreed(device: device, host: ProtocolVersion.current) >= 3
    }

    static func wire(_ now: MediaControl.Now?) -> HostMessage.MediaState {
        guard let now else { return .none }
        let status: HostMessage.MediaState.Status =
            switch now.status {
            case .playing: .playing
            case .paused: .paused
            case .stopped: .stopped
            }
        return .init(status: status, player: now.player)
    }
}
