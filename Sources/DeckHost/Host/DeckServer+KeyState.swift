import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

/// One key of one profile: its page, slot and the folder keys down to it (empty: the deck itself).
struct KeySpot: Hashable, Sendable {
    var profile: String
    var page: Int
    var index: Int
    var path: [DeckLayout.Slot]
}

/// The keys' live looks (issue 23, PROTOCOL §6 "Live looks"): the state commands that run and what each key shows.
struct KeyStates {
    struct Running {
        let button: Button
        let run: StateCommandRun
    }

    /// What a key shows over its configured look, and the button it was shown for (a changed key drops it).
    struct Shown: Equatable {
        var button: Button
        var look: LiveLook
        var error: String?
    }

    var running: [KeySpot: Running] = [:]
    var shown: [KeySpot: Shown] = [:]
    var coalescer = LookCoalescer<KeySpot>()
    /// The microphone's state `micMute` keys last showed (nil: none reported yet, `desktop.mic` has it).
    var mic: MicState?
    /// The value each script slider was last moved to, and when its command may run again (DeckServer+Sliders).
    var sliderValues: [KeySpot: Double] = [:]
    var sliderThrottle = SliderThrottle<KeySpot>()
    let epoch = ContinuousClock.now

    var seconds: Double {
        let elapsed = ContinuousClock.now - epoch
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

extension DeckServer {
    /// Every key with a state command in `layout`, folders included.
    static func stateKeys(in layout: DeckLayout, profile: String) -> [KeySpot: Button] {
        var found: [KeySpot: Button] = [:]
        func walk(_ pages: [[Button?]], path: [DeckLayout.Slot]) {
            for (page, keys) in pages.enumerated() {
                for (index, key) in keys.enumerated() {
                    guard let key else { continue }
                    // A micMute key's look is the microphone's (DeckServer+MicKeys), a slider's its source's
                    // (DeckServer+Sliders): their state commands do not run, except a script slider's.
                    if key.stateCommand != nil, key.kind != .micMute, Self.runsStateCommand(key.kind) {
                        found[KeySpot(profile: profile, page: page, index: index, path: path)] = key
                    }
                    if case .folder(let inner) = key.kind {
                        walk(inner, path: path + [DeckLayout.Slot(page: page, index: index)])
                    }
                }
            }
        }
        walk(layout.pages, path: [])
        return found
    }

    /// The button at `spot` in the config now.
    func button(at spot: KeySpot) -> Button? {
        config.profiles.layout(of: spot.profile)?.button(page: spot.page, index: spot.index, in: spot.path)
    }

    /// Runs the state commands of the keys of every profile shown (the shared current one and each connected
    /// device's), each exactly once; stops those of keys deleted or changed and of profiles no longer shown, and
    /// drops live looks of keys that changed. Cheap when nothing changed: called after every config save and
    /// whenever which profile shows where may have changed.
    func syncStateCommands() {
        let profiles = Set([config.profiles.current] + authorizedConnections.map { shownProfile(for: $0.0) })
        var wanted: [KeySpot: Button] = [:]
        for profile in profiles {
            guard let layout = config.profiles.layout(of: profile) else { continue }
            wanted.merge(Self.stateKeys(in: layout, profile: profile)) { first, _ in first }
        }
        for (spot, running) in keyStates.running where wanted[spot] != running.button {
            running.run.stop()
            keyStates.running[spot] = nil
            forgetShown(spot)
        }
        for (spot, button) in wanted where keyStates.running[spot] == nil {
            guard let source = button.stateCommand else { continue }
            let run = StateCommandRun(source: source, environment: .current) { [weak self] in
                guard let self else { return }
                Task { await self.stateCommandChanged(spot) }
            }
            keyStates.running[spot] = KeyStates.Running(button: button, run: run)
            log.info(
                "state command started", ["profile": spot.profile, "page": "\(spot.page)", "slot": "\(spot.index)"])
            run.start()
        }
        for (spot, shown) in keyStates.shown where button(at: spot) != shown.button {
            forgetShown(spot)
        }
        syncMicKeys(profiles: profiles)
        syncSliders(profiles: profiles)
    }

    /// Whether a key of `kind` shows its state command's looks: a slider does only when a script is its source.
    private static func runsStateCommand(_ kind: Button.Kind) -> Bool {
        guard case .slider(let binding) = kind else { return true }
        if case .script = binding { return true }
        return false
    }

    /// Drops what `spot` shows live and tells the devices that show it.
    func forgetShown(_ spot: KeySpot) {
        guard keyStates.shown.removeValue(forKey: spot) != nil else { return }
        keyStates.coalescer.forget(spot)
        sendKeyState(spot)
    }

    /// A state command has a newer look or error.
    func stateCommandChanged(_ spot: KeySpot) {
        guard let running = keyStates.running[spot] else { return }
        let snapshot = running.run.take()
        keyStates.shown[spot] = KeyStates.Shown(button: running.button, look: snapshot.look, error: snapshot.error)
        deliverKeyState(spot)
    }

    /// Sends `spot`'s live look now, or once 100 ms passed since the last one (the latest then).
    func deliverKeyState(_ spot: KeySpot) {
        switch keyStates.coalescer.offer(spot, now: keyStates.seconds) {
        case .now: sendKeyState(spot)
        case .later(let at, let alreadyPlanned):
            guard !alreadyPlanned else { return }
            let wait = max(0, at - keyStates.seconds)
            Task {
                try? await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up))))
                self.flushKeyState(spot)
            }
        }
    }

    private func flushKeyState(_ spot: KeySpot) {
        keyStates.coalescer.flushed(spot, now: keyStates.seconds)
        sendKeyState(spot)
    }

    func keyStateMessage(_ spot: KeySpot) -> HostMessage {
        let shown = keyStates.shown[spot]
        return .keyState(
            .init(
                profile: spot.profile, page: spot.page, index: spot.index, path: spot.path.isEmpty ? nil : spot.path,
                look: shown?.look ?? LiveLook(), error: shown?.error))
    }

    /// `spot`'s live look (or its clearing) to every device that shows its profile.
    private func sendKeyState(_ spot: KeySpot) {
        let message = keyStateMessage(spot)
        for (id, _) in authorizedConnections where shownProfile(for: id) == spot.profile {
            sendSealed(message, to: id)
        }
    }

    /// Every live look of the profile the device behind `id` shows, after its layout.
    func sendKeyStates(to id: ConnectionID) {
        let profile = shownProfile(for: id)
        for spot in keyStates.shown.keys where spot.profile == profile {
            sendSealed(keyStateMessage(spot), to: id)
        }
    }

    /// A device was authorized or its shown profile changed: its profile's commands run and it sees their looks.
    func keyStatesShown(to id: ConnectionID) {
        syncStateCommands()
        sendKeyStates(to: id)
    }

    /// Kills every state command (the host quits).
    func stopStateCommands() {
        for running in keyStates.running.values { running.run.stop() }
        keyStates.running = [:]
    }
}
