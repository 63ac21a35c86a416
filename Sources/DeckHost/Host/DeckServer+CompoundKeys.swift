import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

/// What runs of the keys that hold keys the actor keeps, by profile and slot: a second press of a running
/// multi-action cancels it, and a toggle is not pressed again while its action runs (both presses would run the same
/// action).
struct CompoundRuns {
    /// A slot of one profile's deck.
    struct Place: Hashable {
        var profile: String
        var slot: DeckLayout.Slot
    }

    var multis: [Place: Task<ActionResult, Never>] = [:]
    var toggles: Set<Place> = []
}

// Multi-actions and toggles (PROTOCOL §6 "Layout", issue 22). Each held key runs through the path its own press
// takes: hotkey and text keys in the keypad's lane, record keys through the recording, the rest through the
// desktop's ActionRunner.
extension DeckServer {
    /// A multi-action: answered `running:true` at once, its outcome when the last step ended, a step failed or a
    /// second press cancelled it. The cancelling press is answered with the same outcome once the run stopped.
    func pressedMulti(_ press: DeviceMessage.Press, steps: [MultiStep], from id: ConnectionID) {
        let slot = CompoundRuns.Place(
            profile: shownProfile(for: id), slot: DeckLayout.Slot(page: press.page, index: press.index))
        if let running = compoundRuns.multis[slot] {
            running.cancel()
            Task { self.pressFinished(press, await running.value, for: id) }
            return
        }
        let runner = MultiActionRunner(runKey: { button in await self.runHeldKey(button, from: id) })
        let run = Task { await runner.run(steps) }
        compoundRuns.multis[slot] = run
        let outcome = ActionOutcome {
            let result = await run.value
            await self.multiEnded(slot, run)
            return result
        }
        pressFinished(press, .running(outcome), for: id)
    }

    private func multiEnded(_ slot: CompoundRuns.Place, _ run: Task<ActionResult, Never>) {
        if compoundRuns.multis[slot] == run { compoundRuns.multis[slot] = nil }
    }

    /// A toggle: runs `on` while off, `off` while on; once that action worked (a command: once it exited 0) the new
    /// state is saved and the layout goes to every device, then the press is answered. A failed action leaves the
    /// state as it was.
    func pressedToggle(_ press: DeviceMessage.Press, button: Button, toggle: Toggle, from id: ConnectionID) {
        let slot = CompoundRuns.Place(
            profile: shownProfile(for: id), slot: DeckLayout.Slot(page: press.page, index: press.index))
        guard !compoundRuns.toggles.contains(slot) else {
            let reason = "still switching \(toggle.isOn ? "off" : "on")"
            return sendSealed(
                .pressResult(.init(page: press.page, index: press.index, ok: false, reason: reason)), to: id)
        }
        compoundRuns.toggles.insert(slot)
        Task {
            let result = await MultiActionRunner.outcome(of: self.runHeldKey(toggle.next, from: id))
            self.toggleEnded(slot, pressed: button, result)
            self.pressFinished(press, result, for: id)
        }
    }

    private func toggleEnded(_ place: CompoundRuns.Place, pressed: Button, _ result: ActionResult) {
        compoundRuns.toggles.remove(place)
        guard result == .ok,
            (try? config.profiles.edit(place.profile) { $0.flipToggle(at: place.slot, pressed: pressed) }) == true
        else { return }
        do {
            try store.save(config, to: .config)
        } catch {
            log.error("could not save a toggle's state: \(error)")
        }
        broadcastLayout(of: place.profile)
    }

    /// Runs a key held by a multi-action or a toggle as its own press would, and gives its result back.
    func runHeldKey(_ button: Button, from id: ConnectionID) async -> ActionResult {
        switch button.kind {
        case .hotkey, .text: return await typingKeyResult(button.kind)
        case .micMute: return await desktop.mic.toggleMute()
        case .slider: return .failed("a slider is moved, not pressed")
        case .record(let displayId, let fps): return await recordKeyResult(displayId: displayId, fps: fps, from: id)
        case .multi, .toggle: return .failed("a multi-action or toggle cannot run inside another")
        case .folder, .page: return .failed("folder and page keys work on the device, not in a multi-action")
        case .profile(let name):
            guard let deviceId = connections[id]?.session.authorizedDevice else { return .failed("the device is gone") }
            do {
                try switchProfile(to: name, device: deviceId)
                return .ok
            } catch {
                return .failed((error as? any WireReportable)?.wireMessage ?? "could not switch the profile")
            }
        case .app, .command, .terminal, .open, .media, .nowPlaying:
            guard let launch = Launch(button) else { return .failed("nothing to launch") }
            return await desktop.actions.run(launch)
        }
    }

    /// A record key held by another: starts recording its monitor, or stops the recording that runs.
    private func recordKeyResult(displayId: Int?, fps: Int, from id: ConnectionID) async -> ActionResult {
        guard screenAllowed(for: id) else { return .failed(notAllowedMessage(for: id)) }
        if recordingHost.machine.running != nil {
            _ = await stopRecording(.requested)
            return .ok
        }
        let who = deviceName(of: id) ?? "a device"
        let outcome = await startRecording(displayId: displayId, fps: fps, maxSide: nil, maxSeconds: nil, by: who)
        return outcome.denial.map { .failed($0.message) } ?? .ok
    }
}
