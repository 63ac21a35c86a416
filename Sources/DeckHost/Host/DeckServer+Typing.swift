import DeckActions
import DeckKit
import DeckTransport

// Typing (PROTOCOL §6 "Text input", protocol 2): the viewer's text and special keys reach the focused window.
extension DeckServer {
    /// Why a `typeText`/`pressKey` from someone other than the viewer is refused (`typed.reason`).
    static let notViewerReason = "only the device viewing the screen may type"

    /// `typeText` → the cleaned text typed, then Return when asked → one `typed`. Return is pressed only after
    /// every key of the text reached the desktop, and only if the text did.
    func typeText(_ request: DeviceMessage.TypeText, from id: ConnectionID) {
        guard mayType(request, from: id) else { return }
        let (typing, text) = (desktop.typing, TextInput.clean(request.text))
        keypadLane.add {
            var result = text.isEmpty ? .ok : await typing.typeText(text)
            if result == .ok, request.enter { result = await typing.pressKey(.returnKey) }
            await self.typed(result, for: id)
        }
    }

    /// `pressKey` → the special key pressed → one `typed`.
    func pressKey(_ key: SpecialKey, from id: ConnectionID) {
        guard mayType(DeviceMessage.PressKey(key: key), from: id) else { return }
        let typing = desktop.typing
        keypadLane.add {
            let result = await typing.pressKey(key)
            await self.typed(result, for: id)
        }
    }

    /// A device at protocol 1 never asked for typing (`error{unavailable}`); anyone but the current viewer
    /// gets `typed{ok:false}`. Typing shares the keypad's lane: keys from both land in the order they came.
    private func mayType(_ message: some MessageBody, from id: ConnectionID) -> Bool {
        let deviceProtocol = connections[id]?.session.deviceProtocol ?? ProtocolVersion.legacy
        guard ProtocolVersion.agreed(device: deviceProtocol, host: ProtocolVersion.current) >= 2 else {
            let text = "\(type(of: message).type) needs protocol 2; this device said \(deviceProtocol)"
            sendSealed(.error(.init(code: .unavailable, message: text)), to: id)
            return false
        }
        guard viewing?.connection == id else {
            sendSealed(.typed(.init(ok: false, reason: Self.notViewerReason)), to: id)
            return false
        }
        return true
    }

    private func typed(_ result: ActionResult, for id: ConnectionID) {
        switch result {
        case .ok: sendSealed(.typed(.init(ok: true)), to: id)
        case .failed(let reason): sendSealed(.typed(.init(ok: false, reason: reason)), to: id)
        }
    }
}
