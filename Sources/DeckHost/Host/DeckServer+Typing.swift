import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport

// Typing (PROTOCOL §6 "Text input", protocol 2): the viewer's text and special keys reach the focused window.
extension DeckServer {
    /// Why a `typeText`/`pressKey` from someone other than the viewer is refused (`typed.reason`).
    static let notViewerReason = "only the device viewing the screen may type"

    /// `typeText` → the cleaned text typed, then Return when asked → one `typed`. Return is pressed only after
    /// every key of the text reached the desktop, and only if the text did.
    func typeText(_ request: DeviceMessage.TypeText, from id: ConnectionID) {
        guard let serial = mayType(request, from: id) else { return }
        let (typing, text) = (desktop.typing, TextInput.clean(request.text))
        inKeyOrder(of: id) {
            let result = await self.typeInTurns(text, enter: request.enter, with: typing) {
                await self.isViewing(serial)
            }
            await self.typed(result, for: id)
        }
    }

    /// `pressKey` → the special key pressed → one `typed`.
    func pressKey(_ key: SpecialKey, from id: ConnectionID) {
        guard let serial = mayType(DeviceMessage.PressKey(chord: key), from: id) else { return }
        let typing = desktop.typing
        inKeyOrder(of: id) {
            guard await self.isViewing(serial) else { return await self.typed(.failed(Self.endedReason), for: id) }
            let result = await self.keyboardTurn { await typing.pressKey(key) }
            await self.typed(result, for: id)
        }
    }

    /// Why keys waiting in the lane when viewing ended are dropped, not typed.
    static let endedReason = "viewing ended before the keys were typed"

    /// A device at protocol 1 never asked for typing (`error{unavailable}`); anyone but the current viewer,
    /// and the viewer before `screenStarted` (a portal desktop may wait minutes for its user's approval), gets
    /// `typed{ok:false}`. Returns the viewing's serial: keys still waiting in the lane when that viewing has
    /// ended are dropped. Typing shares the connection's key lane with its keypad: keys from both land in the
    /// order they came, in turns at the keyboard with other devices' keys (DeckServer+Keyboard).
    private func mayType(_ message: some MessageBody, from id: ConnectionID) -> UInt64? {
        let deviceProtocol = connections[id]?.session.deviceProtocol ?? ProtocolVersion.legacy
        guard ProtocolVersion.agreed(device: deviceProtocol, host: ProtocolVersion.current) >= 2 else {
            let text = "\(type(of: message).type) needs protocol 2; this device said \(deviceProtocol)"
            sendSealed(.error(.init(code: .unavailable, message: text, request: type(of: message).type)), to: id)
            return nil
        }
        guard let serial = viewing.announcedSerial(of: id) else {
            sendSealed(.typed(.init(ok: false, reason: Self.notViewerReason)), to: id)
            return nil
        }
        return serial
    }

    private func typed(_ result: ActionResult, for id: ConnectionID) {
        switch result {
        case .ok, .running: sendSealed(.typed(.init(ok: true)), to: id)
        case .failed(let reason): sendSealed(.typed(.init(ok: false, reason: reason)), to: id)
        }
    }
}
