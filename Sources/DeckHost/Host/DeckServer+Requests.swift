import DeckActions
import DeckKit
import DeckTransport
import Foundation

extension DeckServer {
    /// An opened request from an authorized device.
    func handleRequest(_ message: DeviceMessage, from id: ConnectionID) {
        if let edit = message.layoutEdit { return applyEdit(edit, from: id) }
        switch message {
        case .press(let press): pressed(press, from: id)
        case .listApps: listApps(for: id)
        case .setVolume(let request): changeVolume(for: id) { await $0.setLevel(request.level) }
        case .toggleMute: changeVolume(for: id) { await $0.toggleMute() }
        case .keypad(let request): typeKey(request.key, for: id)
        case .listDisplays: listDisplays(for: id)
        case .startScreen(let request): startScreen(request, from: id)
        case .stopScreen: stopScreen(from: id)
        case .screenOptions(let options): screenOptions(options, from: id)
        case .requestKeyframe: requestKeyframe(from: id)
        case .pointer(let event): pointer(event, from: id)
        case .typeText(let request): typeText(request, from: id)
        case .pressKey(let request): pressKey(request.key, from: id)
        case .recordStart, .recordPause, .recordResume, .recordStop, .listRecordings, .fetchRecording:
            handleRecording(message, from: id)
        default:
            sendSealed(
                .error(.init(code: .unavailable, message: "\(message.type) is not available on this host yet")), to: id)
        }
    }

    /// Applies a layout edit, saves it, then sends the new layout to every authorized device.
    /// Edits are handled one at a time in arrival order, so the later edit of a slot wins.
    func applyEdit(_ edit: any LayoutEdit, from id: ConnectionID) {
        var layout = config.layout
        do {
            try edit.apply(to: &layout)
        } catch {
            return sendSealed(.error(.init(for: error)), to: id)
        }
        config.layout = layout
        do {
            try store.save(config, to: .config)
        } catch {
            log.error("could not save the layout: \(error)")
            sendSealed(.error(.init(code: .unavailable, message: "the layout changed but could not be saved")), to: id)
        }
        broadcast(.layout(.init(layout: layout)))
    }

    private func pressed(_ press: DeviceMessage.Press, from id: ConnectionID) {
        guard let button = config.layout.button(page: press.page, index: press.index) else {
            let reason = Self.whyNoButton(press, in: config.layout)
            let reply = HostMessage.PressResult(page: press.page, index: press.index, ok: false, reason: reason)
            return sendSealed(.pressResult(reply), to: id)
        }
        let runner = desktop.actions
        Task {
            let result = await runner.run(button)
            self.pressFinished(press, result, for: id)
        }
    }

    /// A device pressed a slot that is empty, or one that is gone since it last saw the layout.
    static func whyNoButton(_ press: DeviceMessage.Press, in layout: DeckLayout) -> String {
        guard layout.pages.indices.contains(press.page) else {
            return "page \(press.page) does not exist (\(layout.pages.count) pages)"
        }
        guard (0..<DeckLayout.slotsPerPage).contains(press.index) else {
            return "slot \(press.index) does not exist (0…\(DeckLayout.slotsPerPage - 1))"
        }
        return "empty slot"
    }

    private func pressFinished(_ press: DeviceMessage.Press, _ result: ActionResult, for id: ConnectionID) {
        // The connection may have closed while the action ran; sendSealed drops it then.
        let reply: HostMessage.PressResult
        switch result {
        case .ok: reply = .init(page: press.page, index: press.index, ok: true)
        case .failed(let reason): reply = .init(page: press.page, index: press.index, ok: false, reason: reason)
        }
        sendSealed(.pressResult(reply), to: id)
    }
}
