import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

extension DeckServer {
    /// An opened request from an authorized device.
    func handleRequest(_ message: DeviceMessage, from id: ConnectionID) {
        if let edit = message.layoutEdit { return applyEdit(edit, request: message.type, from: id) }
        switch message {
        case .switchProfile, .followProfile, .addProfile, .deleteProfile, .renameProfile, .importProfile,
            .setProfileApps:
            handleProfile(message, from: id)
        case .undo: undo(from: id)
        case .storeIcon, .getIcon: handleIcon(message, from: id)
        case .setSlider(let request): moveSlider(request, from: id)
        case .press(let press): pressed(press, from: id)
        case .pressDown(let down): pressedDown(down, from: id)
        case .pressUp(let up): pressedUp(up, from: id)
        case .listApps: listApps(for: id)
        case .setVolume(let request): changeVolume(for: id, request: message.type) { await $0.setLevel(request.level) }
        case .toggleMute: changeVolume(for: id, request: message.type) { await $0.toggleMute() }
        case .keypad(let request): typeKey(request.key, for: id)
        case .listDisplays: listDisplays(for: id)
        case .startScreen(let request): startScreen(request, from: id)
        case .stopScreen: stopScreen(from: id)
        case .screenOptions(let options): screenOptions(options, from: id)
        case .requestKeyframe: requestKeyframe(from: id)
        case .pointer(let event): pointer(event, from: id)
        case .typeText(let request): typeText(request, from: id)
        case .pressKey(let request): pressKey(request.chord, from: id)
        case .clipboardSet(let request): clipboardSet(request, from: id)
        case .recordStart, .recordPause, .recordResume, .recordStop, .listRecordings, .fetchRecording,
            .deleteRecording:
            handleRecording(message, from: id)
        default:
            sendSealed(
                .error(
                    .init(
                        code: .unavailable, message: "\(message.type) is not available on this host yet",
                        request: message.type)), to: id)
        }
    }

    /// Applies a layout edit, saves it, then sends the new layout to every authorized device.
    /// Edits are handled one at a time in arrival order, so the later edit of a slot wins.
    func applyEdit(_ edit: any LayoutEdit, request: String, from id: ConnectionID) {
        guard mayEdit(id, request: request) else { return }
        let profile = shownProfile(for: id)
        var changed = config
        let old = config.profiles.layout(of: profile) ?? .empty
        do {
            let before = old.imageNames
            let after = try changed.profiles.edit(profile) { layout in
                try edit.apply(to: &layout)
                return layout.imageNames
            }
            // A stored icon is named by the device only once it is on this host (an upload, an import).
            if let absent = after.subtracting(before).sorted().first(where: { !hasIcon($0) }) {
                throw IconStoreError.missing(absent)
            }
        } catch {
            return sendSealed(.error(.init(for: error, request: request)), to: id)
        }
        undoHistory.record(old, before: changed.profiles.layout(of: profile) ?? .empty, profile: profile)
        do {
            try saveConfig(changed)
        } catch {
            log.error("could not save the layout: \(error)")
            config = changed
            sendSealed(
                .error(
                    .init(code: .unavailable, message: "the layout changed but could not be saved", request: request)),
                to: id)
        }
        broadcastLayout(of: profile)
    }

    /// Puts back the layout the profile the device shows had before its last edit, saved and sent like an edit.
    private func undo(from id: ConnectionID) {
        guard mayEdit(id, request: DeviceMessage.Undo.type) else { return }
        let profile = shownProfile(for: id)
        guard let previous = undoHistory.undo(profile: profile) else {
            let reply = HostMessage.ErrorReply(code: .badMessage, message: "nothing to undo", request: "undo")
            return sendSealed(.error(reply), to: id)
        }
        var changed = config
        try? changed.profiles.edit(profile) { $0 = previous }
        do {
            try saveConfig(changed)
        } catch {
            log.error("could not save the layout: \(error)")
            config = changed
        }
        broadcastLayout(of: profile)
    }

    /// The name of the paired device behind `id`, if it has authorized.
    func deviceName(of id: ConnectionID) -> String? {
        connections[id]?.session.authorizedDevice.flatMap { devices.record(id: $0)?.name }
    }

    /// Whether the device behind `id` may change the deck (a key runs anything the user can).
    func editAllowed(for id: ConnectionID) -> Bool {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return false }
        return devices.record(id: deviceId)?.editAllowed == true
    }

    func pressed(_ press: DeviceMessage.Press, from id: ConnectionID) {
        let layout = config.profiles.layout(of: shownProfile(for: id)) ?? .empty
        guard let button = layout.button(page: press.page, index: press.index, in: press.path ?? []) else {
            let reason = Self.whyNoButton(press, in: layout)
            let reply = HostMessage.PressResult(
                page: press.page, index: press.index, ok: false, reason: reason, path: press.path)
            return sendSealed(.pressResult(reply), to: id)
        }
        switch button.kind {
        case .folder, .page:
            // The device opens folders and turns pages itself; one that sends the press does not know the kind.
            let reason =
                "this key \(button.kind.name == "folder" ? "opens a folder" : "turns pages") on the device (update the app)"
            return pressFinished(press, .failed(reason), for: id)
        case .record(let displayId, let fps): return pressedRecordKey(press, displayId: displayId, fps: fps, from: id)
        case .hotkey, .text: return pressedTypingKey(press, kind: button.kind, from: id)
        case .micMute: return pressedMicKey(press, from: id)
        case .slider: return pressFinished(press, .failed("a slider is moved, not pressed"), for: id)
        case .multi(let steps): return pressedMulti(press, steps: steps, from: id)
        case .toggle(let toggle): return pressedToggle(press, button: button, toggle: toggle, from: id)
        case .profile(let name):
            // Answered first, so the device that pressed sees the press worked before its deck changes.
            guard let deviceId = connections[id]?.session.authorizedDevice else { return }
            guard config.profiles.stored(name) != nil else {
                return pressFinished(press, .failed(ProfileError.noSuchProfile(name).wireMessage), for: id)
            }
            pressFinished(press, .ok, for: id)
            do {
                try switchProfile(to: name, device: deviceId)
            } catch {
                log.error("could not switch the profile: \(error)")
            }
            return
        case .app, .command, .terminal, .open, .media, .nowPlaying: break
        }
        guard let launch = Launch(button) else { return }
        let runner = desktop.actions
        Task {
            let result = await runner.run(launch)
            self.pressFinished(press, result, for: id)
        }
    }

    /// A hotkey or text key: through the desktop's typing, in the device's key lane, so its keys land in order
    /// with its keypad's and its typing (DeckServer+Keyboard). Unlike the viewer's own typing, any device that may
    /// press may press these: the owner of the deck made them.
    private func pressedTypingKey(_ press: DeviceMessage.Press, kind: Button.Kind, from id: ConnectionID) {
        inKeyOrder(of: id) {
            let result = await self.typingKeyResult(kind)
            await self.pressFinished(press, result, for: id)
        }
    }

    /// A device pressed a slot that is empty, or one that is gone since it last saw the layout.
    static func whyNoButton(_ press: DeviceMessage.Press, in layout: DeckLayout) -> String {
        guard let pages = layout.pages(in: press.path ?? []) else { return "the folder is gone" }
        guard pages.indices.contains(press.page) else {
            return "page \(press.page) does not exist (\(pages.count) pages)"
        }
        guard (0..<layout.slots).contains(press.index) else {
            return "slot \(press.index) does not exist (0…\(layout.slots - 1))"
        }
        return "empty slot"
    }

    func pressFinished(_ press: DeviceMessage.Press, _ result: ActionResult, for id: ConnectionID) {
        // The connection may have closed while the action ran; sendSealed drops it then.
        let reply: HostMessage.PressResult
        switch result {
        case .ok: reply = .init(page: press.page, index: press.index, ok: true, path: press.path)
        case .failed(let reason):
            reply = .init(page: press.page, index: press.index, ok: false, reason: reason, path: press.path)
        case .running(let outcome):
            reply = .init(page: press.page, index: press.index, ok: true, running: true, path: press.path)
            Task {
                let final = await outcome.value
                self.pressFinished(press, final, for: id)
            }
        }
        sendSealed(.pressResult(reply), to: id)
    }
}
