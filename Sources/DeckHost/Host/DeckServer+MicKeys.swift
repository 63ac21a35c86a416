import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

// `micMute` keys (issue 23, PROTOCOL §6 "Live looks"): a press toggles the default source's mute; every such key of
// a shown profile carries the microphone's state as its live look (`keyState`), wherever the mute changed. The sound
// server's thread hands changes over through `desktop.micFeed`; the actor never waits on it.
extension DeckServer {
    /// Follows the microphone feed until the task is cancelled or the feed ends.
    func followMic() async {
        for await state in desktop.micFeed.changes {
            micChanged(state)
        }
    }

    /// The mute changed (a key, `pactl`, the desktop's own control) or the microphone came or went.
    func micChanged(_ state: MicState) {
        guard state != keyStates.mic else { return }
        keyStates.mic = state
        syncMicKeys(profiles: Set([config.profiles.current] + authorizedConnections.map { shownProfile(for: $0.0) }))
    }

    /// What a `micMute` key shows for `state`: lit, red and "Mic muted" while muted; "Mic on" while not; an error
    /// mark with the reason when there is no microphone to mute.
    static func micLook(_ state: MicState) -> (look: LiveLook, error: String?) {
        if let reason = state.unavailable { return (LiveLook(), reason) }
        let icon = KeyLook.Icon.emoji("🎙")
        if state.muted { return (LiveLook(label: "Mic muted", color: "red", icon: icon, state: true), nil) }
        return (LiveLook(label: "Mic on", icon: icon, state: false), nil)
    }

    /// Every `micMute` key of `profiles` shows the microphone's current state; looks of such keys in profiles no
    /// longer shown are dropped (they come back when the profile shows again). Sends only what changed.
    func syncMicKeys(profiles: Set<String>) {
        let state = keyStates.mic ?? desktop.mic.current()
        let (look, error) = Self.micLook(state)
        var wanted: [KeySpot: Button] = [:]
        for profile in profiles {
            guard let layout = config.profiles.layout(of: profile) else { continue }
            layout.forEachKey { page, index, path, key in
                guard key.kind == .micMute else { return }
                wanted[KeySpot(profile: profile, page: page, index: index, path: path)] = key
            }
        }
        for (spot, shown) in keyStates.shown where shown.button.kind == .micMute && wanted[spot] == nil {
            forgetShown(spot)
        }
        for (spot, button) in wanted {
            let new = KeyStates.Shown(button: button, look: look, error: error)
            guard keyStates.shown[spot] != new else { continue }
            keyStates.shown[spot] = new
            deliverKeyState(spot)
        }
    }

    /// A device pressed a `micMute` key: the mute flips off the actor; the new look comes back through the feed.
    func pressedMicKey(_ press: DeviceMessage.Press, from id: ConnectionID) {
        let mic = desktop.mic
        Task {
            let result = await mic.toggleMute()
            self.pressFinished(press, result, for: id)
        }
    }
}

extension DeckLayout {
    /// Calls `body` with every key, in folders too: its page, slot and the folder keys down to it.
    func forEachKey(_ body: (Int, Int, [DeckLayout.Slot], Button) -> Void) {
        func walk(_ pages: [[Button?]], path: [DeckLayout.Slot]) {
            for (page, keys) in pages.enumerated() {
                for (index, key) in keys.enumerated() {
                    guard let key else { continue }
                    body(page, index, path, key)
                    if case .folder(let inner) = key.kind {
                        walk(inner, path: path + [DeckLayout.Slot(page: page, index: index)])
                    }
                }
            }
        }
        walk(pages, path: [])
    }
}
