import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

/// Hotkey keys held while pressed (PROTOCOL §6 "Hold while pressed", push-to-talk): what each connection holds down,
/// so that the host always lets it go — at `pressUp`, when the connection closes, when the host stops, or after
/// `holdLimit` when no `pressUp` comes. A value owned by the host's actor.
struct HeldKeys {
    struct Hold {
        let serial: UInt64
        let chord: KeyChord
        /// The key's page, slot and folder path, which `pressUp` names.
        let key: DeviceMessage.PressUp
        var limit: Task<Void, Never>?
    }

    var byConnection: [ConnectionID: [Hold]] = [:]
    var serial: UInt64 = 0
}

extension DeviceMessage.PressUp {
    /// The same key: page, slot and folder path (no path and an empty one are the deck itself).
    func names(_ other: Self) -> Bool {
        page == other.page && index == other.index && (path ?? []) == (other.path ?? [])
    }
}

extension DeckServer {
    /// The finger landed on a key: a hotkey with `hold` goes down in the connection's key lane (answered with
    /// `pressResult` once it is down or failed); any other key is pressed as by `press`.
    func pressedDown(_ down: DeviceMessage.PressDown, from id: ConnectionID) {
        let layout = config.profiles.layout(of: shownProfile(for: id)) ?? .empty
        let button = layout.button(page: down.page, index: down.index, in: down.path ?? [])
        guard case .hotkey(let chord, hold: true)? = button?.kind else { return pressed(down.press, from: id) }
        heldKeys.serial += 1
        let serial = heldKeys.serial
        // Noted before it goes down, so a `pressUp` or a close that comes first still finds it and lets it go after.
        let key = DeviceMessage.PressUp(page: down.page, index: down.index, path: down.path)
        heldKeys.byConnection[id, default: []].append(HeldKeys.Hold(serial: serial, chord: chord, key: key))
        let typing = desktop.typing
        inKeyOrder(of: id) {
            let result = await self.keyboardTurn { await typing.holdKey(chord, true) }
            await self.holdStarted(serial, result, down.press, for: id)
        }
    }

    private func holdStarted(
        _ serial: UInt64, _ result: ActionResult, _ press: DeviceMessage.Press, for id: ConnectionID
    ) {
        pressFinished(press, result, for: id)
        guard let at = heldKeys.byConnection[id]?.firstIndex(where: { $0.serial == serial }) else { return }
        guard result == .ok else {
            heldKeys.byConnection[id]?.remove(at: at)
            if heldKeys.byConnection[id]?.isEmpty == true { heldKeys.byConnection[id] = nil }
            return
        }
        let limit = holdLimit
        heldKeys.byConnection[id]?[at].limit = Task {
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            self.letGo(serial, of: id, because: "held longer than \(limit) without the finger lifting")
        }
    }

    /// The finger left the key: every chord the connection holds for it comes up.
    func pressedUp(_ up: DeviceMessage.PressUp, from id: ConnectionID) {
        for hold in heldKeys.byConnection[id] ?? [] where hold.key.names(up) { letGo(hold.serial, of: id) }
    }

    /// Releases one hold, after the connection's key jobs sent before (its `pressDown` among them).
    func letGo(_ serial: UInt64, of id: ConnectionID, because reason: String? = nil) {
        guard let at = heldKeys.byConnection[id]?.firstIndex(where: { $0.serial == serial }),
            let hold = heldKeys.byConnection[id]?.remove(at: at)
        else { return }
        if heldKeys.byConnection[id]?.isEmpty == true { heldKeys.byConnection[id] = nil }
        hold.limit?.cancel()
        if let reason { log.notice("released a held key: \(reason)", ["conn": "\(id)"]) }
        let typing = desktop.typing
        let chord = hold.chord
        inKeyOrder(of: id) { _ = await self.keyboardTurn { await typing.holdKey(chord, false) } }
    }

    /// The connection closed: everything it holds comes up (call before its key lane is dropped).
    func letGoAll(of id: ConnectionID) {
        for hold in heldKeys.byConnection[id] ?? [] { letGo(hold.serial, of: id, because: "the connection closed") }
    }

    /// Another safety limit (the tests' short one).
    func useHoldLimit(_ limit: Duration) { holdLimit = limit }

    /// The host stops: every held chord comes up before it returns.
    func letGoEverything() async {
        let holds = heldKeys.byConnection.values.joined().map(\.chord)
        heldKeys.byConnection = [:]
        let typing = desktop.typing
        for chord in holds { _ = await keyboardTurn { await typing.holdKey(chord, false) } }
    }
}
