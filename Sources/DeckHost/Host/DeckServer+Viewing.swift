import DeckActions
import DeckDesktop
import DeckKit
import DeckMedia
import DeckSound
import DeckTransport
import Foundation

/// Viewing as the actor keeps it: the machine with the handles the actor opens.
typealias Viewing = ViewingMachine<ScreenStream, AudioStream>

// Screen viewing (PROTOCOL §6 "Screen", §7 "Video"): the requests go to `ViewingMachine`, which decides; this
// file carries out what it returns (the desktop looked at, the stream and the sound, the pointer lane, the
// watch) and feeds what comes back in as events.
extension DeckServer {
    /// `startScreen`: answered `screenStarted`, or `screenDenied` with the reason (ViewingMachine+Start).
    /// A device that may not view and says `ask` asks the computer's user first (DeckServer+Asking).
    func startScreen(_ request: DeviceMessage.StartScreen, from id: ConnectionID) {
        if request.ask == true, !mayView(for: id) { return askToView(from: id) }
        carryOut(viewing.ask(request, from: id, allowed: mayView(for: id)))
    }

    /// `stopScreen`; while the device's question is open, it is withdrawn.
    func stopScreen(from id: ConnectionID) {
        withdrawQuestion(of: id)
        carryOut(viewing.stopScreen(from: id))
    }

    /// `screenOptions`: a new rate for the running stream, sound on or off (neither restarts the video).
    func screenOptions(_ options: DeviceMessage.ScreenOptions, from id: ConnectionID) {
        carryOut(viewing.options(options, from: id))
    }

    /// `requestKeyframe`: the next frame is a keyframe, even on a still screen.
    func requestKeyframe(from id: ConnectionID) { carryOut(viewing.requestKeyframe(from: id)) }

    /// `pointer`: mapped into the viewed monitor and performed in order; ignored unless `id` is viewing.
    func pointer(_ event: DeviceMessage.Pointer, from id: ConnectionID) {
        carryOut(viewing.pointer(event, from: id, now: ProcessInfo.processInfo.systemUptime))
    }

    /// Ends viewing for any reason (the one stop path is `ViewingMachine.stop`).
    func stopViewing(_ reason: HostMessage.ScreenStopped.Reason?) { carryOut(viewing.stop(reason)) }

    /// Ends viewing if `id` views: closed (`reason` nil), revoked, `allow-screen off`.
    func endViewing(of id: ConnectionID, _ reason: HostMessage.ScreenStopped.Reason?) {
        carryOut(viewing.end(id, reason))
    }

    /// A connection closed: if it was viewing, viewing ends (nobody to tell); its question and pass go.
    func connectionClosed(_ id: ConnectionID) {
        withdrawQuestion(of: id)
        withdrawPasteQuestion(of: id)
        endViewing(of: id, nil)
        viewingPasses[id] = nil
    }

    func isViewing(_ serial: UInt64) -> Bool { viewing.isCurrent(serial) }

    /// The host is stopping: the viewer is told (`ended`) while the connection still stands, a recording
    /// is finalized, and the speakers are restored before the process goes.
    public func shutdown() async {
        stopStateCommands()
        stopViewing(.ended)
        await removeMadeMonitors()
        await letGoEverything()
        await stopRecording(.ended)
        let sound = desktop.sound
        await Task.detached { sound.settle() }.value
    }

    /// `touchdeck disconnect-viewer`.
    func disconnectViewer() -> ControlResponse {
        guard let current = viewing.viewing else { return .failure("nobody is viewing the screen") }
        stopViewing(.ended)
        var response = ControlResponse()
        response.viewer = current.viewer.name
        return response
    }

    /// Who views now, for `touchdeck status`: "NAME (monitor HDMI-1, 1920x1080 at 60 fps)", plus ", with sound".
    var viewerDescription: String? {
        guard let current = viewing.viewing else { return nil }
        guard let stream = viewing.opened?.stream else { return "\(current.viewer.name) (starting)" }
        let sound = viewing.soundRunning ? ", with sound" : ""
        let size = "\(stream.size.width)x\(stream.size.height)"
        let kind = current.extend == nil ? "monitor" : "extended onto the monitor made for it,"
        return "\(current.viewer.name) (\(kind) \(current.monitor.name), \(size) at \(stream.fps) fps\(sound))"
    }
}

// Carrying out the viewing machine's actions.
extension DeckServer {
    func carryOut(_ actions: [Viewing.Action]) {
        for action in actions { carryOut(action) }
        settlePasses()
        refreshTray()
    }

    private func carryOut(_ action: Viewing.Action) {
        switch action {
        case .send(let message, let id): sendSealed(message, to: id)
        case .look(let request, let id): look(for: request, from: id)
        case .openStream(let serial, let wanted): openStream(serial, wanted)
        case .joinSound(let ticket, let id): joinSound(ticket, for: id)
        case .setFPS(let stream, let fps): stream.setFPS(fps)
        case .requestKeyframe(let stream): stream.requestKeyframe()
        case .keepMonitor(let monitor): keepForTurn(monitor)
        case .stopStream(let stream):
            let earlier = streamsStopped
            streamsStopped = Task.detached {
                stream.stop()
                await earlier?.value
            }
        case .leaveSound(let sound, let viewer): leave(sound, viewer: viewer)
        case .followClipboard(let ticket): followClipboard(ticket)
        case .stopClipboard(let ticket): stopClipboard(ticket)
        case .input(let actions): performPointer(actions)
        case .wakePointer(let serial, let at): wakePointer(serial, at: at)
        case .watch(let serial, let id, let after): watch(serial, allowedFor: id, after: after)
        case .log(let line): log.write(line)
        case .notify(let title, let body): notifier.notify(title, body)
        }
    }

    /// Off the actor: the monitors (capture possible?), `HostDesktop.isLocked` and whether the desktop's user
    /// must approve; then the machine decides, with the device's permission as it is by then.
    private func look(for request: DeviceMessage.StartScreen, from id: ConnectionID) {
        let (source, isLocked, monitors) = (desktop.screen, desktop.isLocked, desktop.virtualMonitors)
        Task {
            let listed = try? await source.monitors()
            let locked = await isLocked()
            let asked = request.extend == nil ? listed?.first { $0.id == request.displayId } : nil
            let approval = await Task.detached {
                if let extend = request.extend, let asks = monitors.needsApproval { return asks(extend) }
                return source.needsApproval(asked)
            }.value
            let cannotExtend = request.extend == nil ? nil : await Task.detached { monitors.unavailable() }.value
            self.looked(
                request, from: id, monitors: listed, locked: locked, needsApproval: approval,
                cannotExtend: cannotExtend)
        }
    }

    private func looked(
        _ request: DeviceMessage.StartScreen, from id: ConnectionID, monitors: [Monitor]?, locked: Bool,
        needsApproval: Bool, cannotExtend: String?
    ) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }  // gone meanwhile
        let look = ViewingLook(
            deviceId: deviceId, name: devices.record(id: deviceId)?.name ?? deviceId, allowed: mayView(for: id),
            monitors: monitors, locked: locked, needsApproval: needsApproval, clipboard: clipboardAllowed(for: id),
            extendUnavailable: cannotExtend)
        carryOut(viewing.looked(request, from: id, look))
    }

    /// Opens the stream off the actor; its frames go from the capture thread to the transport, never here.
    private func openStream(_ serial: UInt64, _ wanted: ViewingStreamRequest) {
        let id = wanted.connection
        let (monitors, log) = (desktop.virtualMonitors, self.log)
        let kept = keptMonitor
        keptMonitor = nil
        // A kept monitor nobody resizes goes as it would have with its stream.
        let dropKept = { if let kept { MonitorLane.add { Self.remove(kept, with: monitors, log: log) } } }
        guard let sealer = connections[id]?.session.mediaSealer else {
            dropKept()
            return carryOut(viewing.streamDidNotOpen(serial, error: "the connection closed"))
        }
        if wanted.extend == nil { dropKept() }
        var options = ScreenStream.Options(
            monitor: wanted.monitor, maxSide: wanted.maxSide, fps: wanted.fps, encoder: desktop.encoder)
        let (link, source, inputUnavailable) = (self.link, desktop.screen, desktop.inputUnavailable)
        let share = recordingHost.encodes
        let stopped = streamsStopped
        Task.detached {
            var made: VirtualMonitor?
            var release: MonitorRelease?
            do {
                var source = source
                if let extend = wanted.extend {
                    // The stopped streams' monitors leave the lane first (MonitorLane); a kept one (a device that
                    // turned) is resized in place once its old capture has stopped.
                    await stopped?.value
                    do {
                        made = try await MonitorLane.run {
                            if let kept, let resize = monitors.resize { return try resize(kept, extend) }
                            return try monitors.create(extend)
                        }
                    } catch {
                        dropKept()
                        return await self.streamDidNotOpen(serial, error, cannotExtend: true)
                    }
                    if let made {
                        options.monitor = made.monitor
                        let taken = MonitorRelease { Self.remove(made.monitor, with: monitors, log: log) }
                        release = taken
                        source = source.extended(made, release: taken)
                    }
                }
                let stream = try ScreenStream(
                    options, source: source, log: log, share: share,
                    send: sealer.sending(over: link, to: id),
                    failed: { failure in Task { await self.streamFailed(serial, failure) } })
                await self.streamOpened(
                    serial, stream, viewOnly: stream.inputRefusal ?? inputUnavailable,
                    made: made.map { ($0.monitor, $0.pointerArea) }, release: release)
            } catch {
                // The capture never started, so nothing else takes the made monitor away.
                if let release { MonitorLane.add { release.run() } }
                await self.streamDidNotOpen(serial, error)
            }
        }
    }

    private func streamOpened(
        _ serial: UInt64, _ stream: ScreenStream, viewOnly: String?, made: (Monitor, PixelRect)?,
        release: MonitorRelease?
    ) {
        if let made, let release {
            monitorReleases = monitorReleases.filter { !$0.value.isSettled }
            monitorReleases[made.0.name] = release
        }
        var opened = Viewing.Opened(
            stream: stream, width: stream.size.width, height: stream.size.height, fps: stream.fps, viewOnly: viewOnly)
        opened.made = made.map { (monitor: $0.0, pointerArea: $0.1) }
        carryOut(viewing.streamOpened(serial, opened))
    }

    private func streamDidNotOpen(_ serial: UInt64, _ error: any Error, cannotExtend: Bool = false) {
        let text = if case ScreenSourceError.captureFailed(let words) = error { words } else { "\(error)" }
        carryOut(viewing.streamDidNotOpen(serial, error: cannotExtend ? text : "\(error)", cannotExtend: cannotExtend))
    }

    private func streamFailed(_ serial: UInt64, _ failure: ScreenStream.Failure) {
        carryOut(viewing.streamFailed(serial, "\(failure)"))
    }

    /// Subscribes the viewer's sound here on the actor, so that starts and stops reach the sound queue in the
    /// order viewing asked for them; the handle goes to the machine at once, the capture's answer later.
    private func joinSound(_ ticket: UInt64, for id: ConnectionID) {
        guard let sealer = connections[id]?.session.mediaSealer else {
            return carryOut(viewing.soundJoined(ticket, nil))
        }
        let link = self.link
        let sound = AudioStream(
            source: desktop.sound,
            send: sealer.sending(over: link, to: id),
            started: { error in Task { await self.soundStarted(ticket, error) } })
        carryOut(viewing.soundJoined(ticket, sound))
    }

    private func soundStarted(_ ticket: UInt64, _ error: SoundError?) {
        carryOut(viewing.soundStarted(ticket, error: error.map { "\($0)" }))
    }

    /// Leaves the capture (returns at once: its queue restores the speakers, in order with any later start).
    private func leave(_ sound: AudioStream, viewer: String) {
        sound.stop()
        let counts = sound.counts
        log.info(
            "sound for the viewer stopped",
            [
                "device.name": viewer, "packets.sent": "\(counts.sent)",
                "packets.dropped": "\(counts.dropped)",
            ])
    }

    private func performPointer(_ actions: [InputAction]) {
        let (input, log) = (desktop.input, self.log)
        pointerLane.add {
            do { try await input.perform(actions) } catch { log.warning("pointer input failed: \(error)") }
        }
    }

    private func wakePointer(_ serial: UInt64, at wakeAt: TimeInterval) {
        let delay = max(0, wakeAt - ProcessInfo.processInfo.systemUptime)
        Task {
            try? await Task.sleep(for: .seconds(delay))
            self.carryOut(self.viewing.pointerWake(serial, now: ProcessInfo.processInfo.systemUptime))
        }
    }

    /// The lock is looked at off the actor (`LockProbe`), the permission on it when the answer is back.
    private func watch(_ serial: UInt64, allowedFor id: ConnectionID, after: Duration) {
        let isLocked = desktop.isLocked
        Task {
            if after > .zero { try? await Task.sleep(for: after) }
            let locked = await isLocked()
            self.carryOut(self.viewing.watched(serial, allowed: self.mayView(for: id), locked: locked))
        }
    }
}

extension Rect {
    /// A monitor's rectangle on the desktop.
    init(_ pixels: PixelRect) {
        self.init(x: Double(pixels.x), y: Double(pixels.y), width: Double(pixels.width), height: Double(pixels.height))
    }
}
