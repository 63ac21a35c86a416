import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

// Sliders (issue 23, PROTOCOL §6 "Tiles and sliders"): `setSlider` moves the speakers, the microphone, one app's
// streams or runs a script with the value; every slider of a shown profile carries its source's level as its live
// look (`keyState` with `value`), wherever the level changed. Sound changes go through the volume lane, in order, so
// the last value of a drag is the one that stays.
extension DeckServer {
    /// Follows the sliders' levels (microphone and apps) until the task is cancelled or the feed ends.
    func followLevels() async {
        for await _ in desktop.levels.changes {
            syncSliders()
        }
    }

    /// Every slider of the profiles shown shows its source's level now; sends only what changed. A script slider
    /// with a state command shows that command's looks instead, one without shows the last value set.
    func syncSliders(profiles: Set<String>? = nil) {
        let profiles =
            profiles ?? Set([config.profiles.current] + authorizedConnections.map { shownProfile(for: $0.0) })
        var wanted: [KeySpot: Button] = [:]
        for profile in profiles {
            guard let layout = config.profiles.layout(of: profile) else { continue }
            layout.forEachKey { page, index, path, key in
                guard case .slider(let binding) = key.kind else { return }
                if case .script = binding, key.stateCommand != nil { return }
                wanted[KeySpot(profile: profile, page: page, index: index, path: path)] = key
            }
        }
        for (spot, shown) in keyStates.shown where Self.isOwnSlider(shown.button) && wanted[spot] == nil {
            forgetShown(spot)
        }
        // A script slider deleted or no longer shown forgets its last value (shown again from 0 when it comes back).
        keyStates.sliderValues = keyStates.sliderValues.filter { wanted[$0.key] != nil }
        for (spot, button) in wanted {
            guard case .slider(let binding) = button.kind else { continue }
            let (look, error) = sliderLook(binding, spot: spot)
            let new = KeyStates.Shown(button: button, look: look, error: error)
            guard keyStates.shown[spot] != new else { continue }
            keyStates.shown[spot] = new
            deliverKeyState(spot)
        }
    }

    /// A slider whose look the host gives (not a state command's).
    private static func isOwnSlider(_ button: Button) -> Bool {
        guard case .slider(let binding) = button.kind else { return false }
        if case .script = binding { return button.stateCommand == nil }
        return true
    }

    private func sliderLook(_ binding: SliderBinding, spot: KeySpot) -> (LiveLook, String?) {
        let level: SoundLevels.Level
        switch binding {
        case .speakers:
            let volume = desktop.volume.current()
            level = volume.available ? .level(volume.level) : .unavailable("no sound server")
        case .microphone: level = desktop.levels.current(.microphone)
        case .app(let name): level = desktop.levels.current(.app(name))
        case .script: level = .level(keyStates.sliderValues[spot] ?? 0)
        }
        switch level {
        case .level(let value): return (LiveLook(value: (value * 1000).rounded() / 1000), nil)
        case .unavailable(let why): return (LiveLook(), why)
        }
    }

    /// A device moved a slider of the profile it shows.
    func moveSlider(_ request: DeviceMessage.SetSlider, from id: ConnectionID) {
        let profile = shownProfile(for: id)
        let path = request.path ?? []
        guard
            let button = config.profiles.layout(of: profile)?.button(
                page: request.page, index: request.index, in: path),
            case .slider(let binding) = button.kind
        else {
            let text = "no slider at page \(request.page) slot \(request.index)"
            return sendSealed(
                .error(.init(code: .badMessage, message: text, request: DeviceMessage.SetSlider.type)), to: id)
        }
        let spot = KeySpot(profile: profile, page: request.page, index: request.index, path: path)
        let value = request.value
        let set: @Sendable () async -> ActionResult
        switch binding {
        case .speakers:
            let volume = desktop.volume
            set = { await volume.setLevel(value) }
        case .microphone, .app:
            let levels = desktop.levels
            let target: SoundLevels.Target = if case .app(let name) = binding { .app(name) } else { .microphone }
            set = { await levels.set(target, value) }
        case .script:
            return moveScriptSlider(spot, binding: binding, value: value, from: id)
        }
        volumeLane.add {
            guard case .failed(let reason) = await set() else { return }
            await self.sliderFailed(reason, request: DeviceMessage.SetSlider.type, for: id)
        }
    }

    private func sliderFailed(_ reason: String, request: String, for id: ConnectionID) {
        sendSealed(.error(.init(code: .unavailable, message: reason, request: request)), to: id)
    }

    /// A script slider runs its command at most 20 times a second; a value that comes sooner waits, and the latest
    /// waiting one runs when its turn comes, so the last value of a drag always runs.
    private func moveScriptSlider(_ spot: KeySpot, binding: SliderBinding, value: Double, from id: ConnectionID) {
        keyStates.sliderValues[spot] = value
        syncSliders()
        switch keyStates.sliderThrottle.offer(spot, now: keyStates.seconds) {
        case .now: runScriptSlider(spot, binding: binding, from: id)
        case .later(let at, let alreadyPlanned):
            guard !alreadyPlanned else { return }
            let wait = max(0, at - keyStates.seconds)
            Task {
                try? await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up))))
                self.scriptSliderTurn(spot, binding: binding, from: id)
            }
        }
    }

    private func scriptSliderTurn(_ spot: KeySpot, binding: SliderBinding, from id: ConnectionID) {
        keyStates.sliderThrottle.ran(spot, now: keyStates.seconds)
        runScriptSlider(spot, binding: binding, from: id)
    }

    private func runScriptSlider(_ spot: KeySpot, binding: SliderBinding, from id: ConnectionID) {
        guard let line = binding.command(for: keyStates.sliderValues[spot] ?? 0) else { return }
        let actions = desktop.actions
        let type = DeviceMessage.SetSlider.type
        volumeLane.add {
            // Started detached as a command key's line is; its outcome is not waited for (the next value may come).
            guard case .failed(let reason) = await actions.run(.command(line, label: "slider")) else { return }
            await self.sliderFailed(reason, request: type, for: id)
        }
    }
}
