import DeckActions
import DeckDesktop
import DeckKit
import Foundation

// The local API (issue 23): `touchdeck key set|get` and `touchdeck press` over the control socket, only the user's.
extension DeckServer {
    func keyControl(_ request: ControlRequest) async -> ControlResponse {
        let profile = request.profile.flatMap { config.profiles.stored($0) } ?? config.profiles.current
        if let asked = request.profile, config.profiles.stored(asked) == nil {
            return .failure(ProfileError.noSuchProfile(asked).wireMessage)
        }
        guard let page = request.page, let slot = request.slot else { return .failure("name the key: PAGE SLOT") }
        let steps = request.folder ?? []
        guard steps.allSatisfy({ $0.count == 2 }) else { return .failure("a folder is PAGE:SLOT") }
        let path = steps.map { DeckLayout.Slot(page: $0[0], index: $0[1]) }
        let spot = KeySpot(profile: profile, page: page, index: slot, path: path)
        guard let button = button(at: spot) else {
            let folder = path.isEmpty ? "" : " of the folder at \(Self.folderName(path))"
            return .failure("no key on page \(page), slot \(slot)\(folder) of \(profile)")
        }
        switch request.command {
        case .keySet: return setLiveLook(request, spot: spot, button: button)
        case .press: return await press(button, spot: spot)
        default: return keyDescription(spot)
        }
    }

    /// A folder path as `--folder` takes it: `PAGE:SLOT` of each folder key from the deck down, joined by `/`.
    static func folderName(_ path: [DeckLayout.Slot]) -> String {
        path.map { "\($0.page):\($0.index)" }.joined(separator: "/")
    }

    /// The key, its live look and its state command's error, as `touchdeck key get` prints it.
    private func keyDescription(_ spot: KeySpot) -> ControlResponse {
        struct Described: Encodable {
            var profile: String
            var page: Int
            var slot: Int
            var folder: String?
            var button: Button?
            var live: LiveLook?
            var error: String?
        }
        let shown = keyStates.shown[spot]
        let described = Described(
            profile: spot.profile, page: spot.page, slot: spot.index,
            folder: spot.path.isEmpty ? nil : Self.folderName(spot.path), button: button(at: spot), live: shown?.look,
            error: shown?.error)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var response = ControlResponse()
        response.key = (try? encoder.encode(described)).map { String(decoding: $0, as: UTF8.self) }
        return response
    }

    /// `key set`: the look over the key's live look, sent like a state line's; with `save` its label, colour and
    /// icon become the key's configured look (saved, sent as a new layout) and the rest stays live.
    private func setLiveLook(_ request: ControlRequest, spot: KeySpot, button: Button) -> ControlResponse {
        var shown = keyStates.shown[spot] ?? KeyStates.Shown(button: button, look: LiveLook())
        if shown.button != button { shown = KeyStates.Shown(button: button, look: LiveLook()) }
        let look: LiveLook
        do {
            look = try shown.look.applying(line: request.look ?? "{}")
        } catch {
            return .failure(error.description)
        }
        guard request.save == true else {
            shown.look = look
            keyStates.shown[spot] = shown
            deliverKeyState(spot)
            return keyDescription(spot)
        }
        var saved = button
        saved.label = look.label ?? saved.label
        saved.look.color = look.color ?? saved.look.color
        saved.look.icon = look.icon ?? saved.look.icon
        var changed = config
        do {
            try changed.profiles.edit(spot.profile) { layout in
                try layout.set(page: spot.page, index: spot.index, button: saved, in: spot.path)
            }
            undoHistory.record(
                config.profiles.layout(of: spot.profile) ?? .empty,
                before: changed.profiles.layout(of: spot.profile) ?? .empty, profile: spot.profile)
            try saveConfig(changed)
        } catch {
            return .failure("could not save the key: \(error)")
        }
        broadcastLayout(of: spot.profile)
        let rest = LiveLook(badge: look.badge, state: look.state, value: look.value)
        if !rest.isEmpty {
            keyStates.shown[spot] = KeyStates.Shown(button: saved, look: rest)
            deliverKeyState(spot)
        }
        return keyDescription(spot)
    }

    /// `touchdeck press`: presses the key as a device that shows its profile would, and waits for the outcome.
    private func press(_ button: Button, spot: KeySpot) async -> ControlResponse {
        let result: ActionResult
        switch button.kind {
        case .folder, .page: result = .failed("this key opens a folder or turns pages on a device")
        case .record, .multi, .toggle:
            result = .failed("a \(button.kind.name) key cannot be pressed from the command line yet")
        case .hotkey, .text: result = await typingKeyResult(button.kind)
        case .micMute: result = await desktop.mic.toggleMute()
        case .slider: result = .failed("a slider is moved, not pressed")
        case .profile(let name):
            do {
                try switchProfile(to: name, device: nil)
                result = .ok
            } catch {
                result = .failed("\(error)")
            }
        case .app, .command, .terminal, .open, .media, .nowPlaying:
            guard let launch = Launch(button) else { return .failure("this key does nothing") }
            result = await desktop.actions.run(launch)
        }
        var final = result
        if case .running(let outcome) = result { final = await outcome.value }
        var response = ControlResponse()
        switch final {
        case .ok, .running: response.pressed = "ok"
        case .failed(let reason):
            response.ok = false
            response.error = reason
        }
        return response
    }
}
