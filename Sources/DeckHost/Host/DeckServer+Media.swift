import DeckActions
import DeckDesktop
import DeckKit
import DeckMedia
import DeckTransport
import Foundation

// What media keys and now-playing tiles show (PROTOCOL §6 "What a media key shows"): the player a press reaches, its
// PlaybackStatus and its track, looked at off the actor (`MediaControl.now` runs its bus calls on a queue of its own)
// whenever a player signals a change, and sent when it changes.
extension DeckServer {
    /// How often the players are looked at without a signal: players that signal nothing (and a host with no bus
    /// to follow) are still seen. With no bus to follow, once a second as before signals were followed.
    static let mediaBackstop = Duration.seconds(5)
    static let mediaPollInterval = Duration.seconds(1)

    /// Follows the media players until the task is cancelled: a look at start, then one per burst of signals.
    func followMedia() async {
        let media = desktop.media
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let following = media.follow { wake.yield() }
        let interval = following ? Self.mediaBackstop : Self.mediaPollInterval
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                wake.yield()
            }
        }
        defer { ticker.cancel() }
        var art = MediaArt()
        var shownAt = ContinuousClock.now
        repeat {
            let now = await media.now()
            let picture = await art.picture(for: now?.track.artURL)
            let state = Self.wire(now, art: picture)
            let elapsed = ContinuousClock.now - shownAt
            if state.differs(from: mediaShown, after: Double(elapsed.components.seconds)) {
                shownAt = .now
                mediaChanged(state)
            }
        } while await wakes.first(where: { _ in true }) != nil && !Task.isCancelled
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

    static func wire(_ now: MediaControl.Now?, art: String? = nil) -> HostMessage.MediaState {
        guard let now else { return .none }
        let status: HostMessage.MediaState.Status =
            switch now.status {
            case .playing: .playing
            case .paused: .paused
            case .stopped: .stopped
            }
        let track = now.track
        return .init(
            status: status, player: now.player, title: track.title, artist: track.artist, album: track.album,
            art: art, position: track.position, length: track.length)
    }
}

/// The album art media tiles show: a local file (`file://`) the player names, at most `IconImage.maxBytes`, fitted
/// within 144×144 as a stored icon is and sent as a PNG data URL. Converted on the icons' thread, once per file and
/// version (its size and modification time), so a player that writes each cover to the same path is followed.
/// Art at other addresses (`https://`) is not fetched: the host reaches out to no one for a picture.
struct MediaArt {
    private var last: (key: String, picture: String?)?

    /// The data URL for `url`, or nil: none, not a local file, too large, unreadable or not a picture.
    mutating func picture(for url: String?) async -> String? {
        guard let url, let path = Self.localPath(url) else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, size <= IconImage.maxBytes
        else { return nil }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let key = "\(path)\u{0}\(size)\u{0}\(modified)"
        if let last, last.key == key { return last.picture }
        var picture: String?
        if let work = IconWork.start({ try IconImage.storedPNG(from: Data(contentsOf: URL(fileURLWithPath: path))) }),
            case .success(let png) = await work()
        {
            picture = "data:image/png;base64," + png.base64EncodedString()
        }
        last = (key, picture)
        return picture
    }

    /// The path of a `file://` URL (percent escapes decoded); nil for any other address.
    static func localPath(_ url: String) -> String? {
        guard let parsed = URL(string: url), parsed.isFileURL, !parsed.path.isEmpty else { return nil }
        return parsed.path
    }
}
