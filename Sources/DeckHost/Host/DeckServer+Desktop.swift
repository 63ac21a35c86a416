import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

// The app catalog, the volume gauge and the keypad (PROTOCOL §6, DESIGN.md#deck, #search). The desktop work runs off
// the actor; its answers come back through the actor, which re-checks that the connection is still there
// (`sendSealed` drops messages for closed connections).
extension DeckServer {
    /// `listApps` → `apps`, scanned and encoded off the actor; concurrent requests share one scan.
    func listApps(for id: ConnectionID) {
        let message = appsMessage
        Task {
            let encoded = await message.encoded()
            self.sendSealed(encoded: encoded, to: id)
        }
    }

    func sendSealed(encoded: Data, to id: ConnectionID) {
        guard let text = connections[id]?.session.seal(encoded: encoded) else { return }
        link.send(text: text, to: id)
    }

    /// `setVolume` and `toggleMute`, applied in arrival order. Success needs no reply: the sound server
    /// reports the change, and `volumeChanged` sends it to every device. A failure is told to the sender,
    /// with the state to put its gauge back to.
    func changeVolume(
        for id: ConnectionID, request: String, _ change: @escaping @Sendable (VolumeControl) async -> ActionResult
    ) {
        let volume = desktop.volume
        volumeLane.add {
            guard case .failed(let reason) = await change(volume) else { return }
            await self.volumeChangeFailed(reason, request: request, for: id)
        }
    }

    private func volumeChangeFailed(_ reason: String, request: String, for id: ConnectionID) {
        sendSealed(.error(.init(code: .unavailable, message: reason, request: request)), to: id)
        sendSealed(.volume(Self.wire(desktop.volume.current())), to: id)
    }

    /// Follows the volume feed until the task is cancelled or the feed ends.
    func followVolume() async {
        for await state in desktop.volumeFeed.changes {
            volumeChanged(state)
        }
    }

    /// A change made anywhere reaches every authorized device (once per distinct state).
    func volumeChanged(_ state: VolumeState) {
        guard state != volumeShown else { return }
        defer { syncSliders() }  // speakers sliders show the gauge's level too
        if state.available != (volumeShown?.available ?? true) {
            if state.available {
                log.notice("sound server found; devices show the volume again")
            } else {
                log.warning("no sound server; devices show the volume as unavailable until one appears")
            }
        }
        volumeShown = state
        broadcast(.volume(Self.wire(state)))
    }

    /// The state a newly authorized device starts from.
    func sendVolume(to id: ConnectionID) {
        sendSealed(.volume(Self.wire(desktop.volume.current())), to: id)
    }

    static func wire(_ state: VolumeState) -> HostMessage.Volume {
        .init(available: state.available, level: state.available ? state.level : 0, muted: state.muted)
    }

    /// `keypad` → the key typed on the desktop → `keypadResult` to the sender. Each device's keys are typed in
    /// the order it sent them, in turns at the keyboard with other devices' keys (DeckServer+Keyboard).
    func typeKey(_ key: DeviceMessage.Keypad.Key, for id: ConnectionID) {
        let keys = desktop.keys
        inKeyOrder(of: id) {
            let result = await self.keyboardTurn { await keys.press(key) }
            await self.keyTyped(result, for: id)
        }
    }

    private func keyTyped(_ result: ActionResult, for id: ConnectionID) {
        switch result {
        case .ok, .running: sendSealed(.keypadResult(.init(ok: true)), to: id)
        case .failed(let reason): sendSealed(.keypadResult(.init(ok: false, reason: reason)), to: id)
        }
    }
}
