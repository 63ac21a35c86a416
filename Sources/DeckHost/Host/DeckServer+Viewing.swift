import DeckActions
import DeckKit
import DeckMedia
import DeckScreen
import DeckSound
import DeckTransport
import Foundation

/// The one device viewing the screen, as the actor keeps it.
struct Viewing {
    let serial: UInt64
    let connection: ConnectionID
    let viewer: ScreenAccess.Viewer
    let monitor: Monitor
    /// Nil while the stream is being opened (off the actor).
    var stream: ScreenStream?
    var pointer: PointerDriver
    /// A pointer wake-up is scheduled (a move held back by the 60-per-second limit).
    var wakeScheduled = false
    /// The viewer's sound, while asked for (`audio`); `soundRunning` once the capture said it runs.
    var sound: AudioStream?
    var soundRunning = false
    /// `screenStarted` has been sent (it waits for the video and for a sound start asked with `startScreen`).
    var announced = false
    var displayId: Int
}

// Screen viewing (PROTOCOL §6 "Screen", §7 "Video"): access, the stream's start and options, the pointer, and
// the one stop path every end of viewing goes through.
extension DeckServer {
    /// `startScreen`: decides access (allowed → capture possible → unlocked → nobody else), then opens the
    /// stream off the actor and answers `screenStarted`, or `screenDenied` with the reason.
    func startScreen(_ request: DeviceMessage.StartScreen, from id: ConnectionID) {
        guard screenAllowed(for: id) else { return sendSealed(.screenDenied(.init(reason: .notAllowed)), to: id) }
        let source = desktop.screen
        let isLocked = desktop.isLocked
        Task {
            let monitors = try? await source.monitors()
            let locked = await isLocked()
            let approval = await Task.detached { source.needsApproval() }.value
            self.decideScreen(request, from: id, monitors: monitors, locked: locked, needsApproval: approval)
        }
    }

    /// Access decided, the stream is opened; when the desktop will ask its user first (the ScreenCast portal's
    /// first use), the device hears `screenPending{approval}` at once, `screenStarted` or `screenDenied` later.
    private func decideScreen(
        _ request: DeviceMessage.StartScreen, from id: ConnectionID, monitors: [Monitor]?, locked: Bool,
        needsApproval: Bool
    ) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }  // gone meanwhile
        let decision = ScreenAccess.decide(
            allowed: screenAllowed(for: id), permission: monitors != nil, locked: locked, viewer: viewing?.viewer,
            requester: deviceId)
        if let denial = decision.denial { return sendSealed(.screenDenied(denial), to: id) }
        guard let monitor = monitors?.first(where: { $0.id == request.displayId }) else {
            let known = monitors?.map { "\($0.id)" }.joined(separator: ", ") ?? ""
            return sendSealed(
                .error(.init(code: .badMessage, message: "no display has id \(request.displayId) (ids: \(known))")),
                to: id)
        }
        guard let sealer = connections[id]?.session.mediaSealer else { return }
        if needsApproval { sendSealed(.screenPending(.init(reason: .approval)), to: id) }
        // The same device again (another monitor, a reconnect, a second tab): its old stream ends first.
        if let current = viewing {
            stopViewing(current.connection == id ? nil : .replaced, quietly: true)
        }
        viewingSerial += 1
        let serial = viewingSerial
        let name = devices.record(id: deviceId)?.name ?? deviceId
        viewing = Viewing(
            serial: serial, connection: id, viewer: ScreenAccess.Viewer(deviceId: deviceId, name: name),
            monitor: monitor, stream: nil, pointer: PointerDriver(monitor: Rect(monitor.frame)),
            displayId: request.displayId)
        if request.audio { startSound(serial) }
        let options = ScreenStream.Options(
            monitor: monitor, maxSide: request.maxSide, fps: request.fps, encoder: desktop.encoder)
        let (link, log, source) = (self.link, self.log, desktop.screen)
        Task.detached {
            let opened = Result {
                try ScreenStream(
                    options, source: source, log: log,
                    send: { payload, onSent in sealer.seal(payload) { link.send(binary: $0, to: id, onSent: onSent) } },
                    failed: { failure in Task { await self.streamFailed(serial, failure) } })
            }
            await self.streamOpened(serial, opened)
        }
    }

    private func streamOpened(_ serial: UInt64, _ opened: Result<ScreenStream, any Error>) {
        guard var current = viewing, current.serial == serial else {
            // Viewing ended (or moved on) while the stream opened: it never starts.
            if case .success(let stream) = opened { Task.detached { stream.stop() } }
            return
        }
        switch opened {
        case .failure(let error):
            log.error("screen viewing could not start: \(error)", ["device.name": current.viewer.name])
            viewing = nil
            current.sound?.stop()
            sendSealed(.screenDenied(.init(reason: .noPermission)), to: current.connection)
        case .success(let stream):
            current.stream = stream
            viewing = current
            announceStarted(serial)
        }
    }

    /// Sends `screenStarted` once the video runs and a sound asked for has started (or failed).
    private func announceStarted(_ serial: UInt64) {
        guard var current = viewing, current.serial == serial, !current.announced, let stream = current.stream,
            current.sound == nil || current.soundRunning
        else { return }
        current.announced = true
        viewing = current
        let started = HostMessage.ScreenStarted(
            displayId: current.displayId, width: stream.size.width, height: stream.size.height, fps: stream.fps,
            audio: current.soundRunning, viewOnly: stream.inputRefusal ?? desktop.inputUnavailable)
        sendSealed(.screenStarted(started), to: current.connection)
        log.notice(
            "screen viewing started",
            ["device.name": current.viewer.name, "display": current.monitor.name,
             "size": "\(stream.size.width)x\(stream.size.height)", "fps": "\(stream.fps)"])
        notifier.notify(
            "TouchDeck: \(current.viewer.name) is viewing your screen",
            "Monitor \(current.monitor.name). End it with: touchdeck disconnect-viewer")
        watchWhileViewing(serial)
    }

    /// Starts the viewer's sound: a consumer of the shared capture, subscribed here on the actor so that
    /// starts and stops reach the sound queue in the order viewing asked for them.
    private func startSound(_ serial: UInt64) {
        guard var current = viewing, current.serial == serial, current.sound == nil,
            let sealer = connections[current.connection]?.session.mediaSealer
        else { return }
        let (link, id) = (self.link, current.connection)
        current.sound = AudioStream(
            source: desktop.sound,
            send: { payload, onSent in sealer.seal(payload) { link.send(binary: $0, to: id, onSent: onSent) } },
            started: { error in Task { await self.soundStarted(serial, error) } })
        current.soundRunning = false
        viewing = current
    }

    private func soundStarted(_ serial: UInt64, _ error: SoundError?) {
        guard var current = viewing, current.serial == serial, let sound = current.sound else { return }
        if let error {
            log.warning("sound for the viewer could not start: \(error)", ["device.name": current.viewer.name])
            sound.stop()
            current.sound = nil
        } else {
            current.soundRunning = true
        }
        viewing = current
        announceStarted(serial)
    }

    private func stopSound(_ serial: UInt64) {
        guard var current = viewing, current.serial == serial, let sound = current.sound else { return }
        endSound(sound, viewer: current.viewer.name)
        current.sound = nil
        current.soundRunning = false
        viewing = current
    }

    /// Every second while someone views: still allowed, still unlocked? Otherwise viewing stops at once.
    private func watchWhileViewing(_ serial: UInt64) {
        let isLocked = desktop.isLocked
        Task {
            while await self.isViewing(serial) {
                let locked = await isLocked()
                await self.recheck(serial, locked: locked)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func isViewing(_ serial: UInt64) -> Bool { viewing?.serial == serial }

    private func recheck(_ serial: UInt64, locked: Bool) {
        guard let current = viewing, current.serial == serial else { return }
        let decision = ScreenAccess.decide(
            allowed: screenAllowed(for: current.connection), permission: true, locked: locked,
            viewer: current.viewer, requester: current.viewer.deviceId)
        switch decision {
        case .notAllowed: stopViewing(.notAllowed)
        case .locked: stopViewing(.locked)
        default: break
        }
    }

    private func streamFailed(_ serial: UInt64, _ failure: ScreenStream.Failure) {
        guard viewing?.serial == serial else { return }
        log.error("screen viewing failed: \(failure)")
        stopViewing(.error)
    }

    /// Leaves the capture (returns at once: its queue restores the speakers, in order with any later start).
    private func endSound(_ sound: AudioStream, viewer: String) {
        sound.stop()
        let counts = sound.counts
        log.info("sound for the viewer stopped", ["device.name": viewer, "packets.sent": "\(counts.sent)",
            "packets.dropped": "\(counts.dropped)"])
    }

    /// `stopScreen`.
    func stopScreen(from id: ConnectionID) {
        guard viewing?.connection == id else { return sendSealed(.screenStopped(.init(reason: .requested)), to: id) }
        stopViewing(.requested)
    }

    /// `screenOptions`: a new rate for the running stream, sound on or off (neither restarts the video).
    func screenOptions(_ options: DeviceMessage.ScreenOptions, from id: ConnectionID) {
        guard let current = viewing, current.connection == id else { return }
        current.stream?.setFPS(options.fps)
        if options.audio { startSound(current.serial) } else { stopSound(current.serial) }
    }

    /// `requestKeyframe`: the next frame is a keyframe, even on a still screen.
    func requestKeyframe(from id: ConnectionID) {
        guard let current = viewing, current.connection == id else { return }
        current.stream?.requestKeyframe()
    }

    /// `pointer`: mapped into the viewed monitor and performed in order; ignored unless `id` is viewing.
    func pointer(_ event: DeviceMessage.Pointer, from id: ConnectionID) {
        guard var current = viewing, current.connection == id, current.stream != nil else { return }
        let output = current.pointer.receive(event, now: ProcessInfo.processInfo.systemUptime)
        viewing = current
        apply(output, serial: current.serial)
    }

    private func apply(_ output: PointerDriver.Output, serial: UInt64) {
        if !output.actions.isEmpty {
            let (input, actions, log) = (desktop.input, output.actions, self.log)
            pointerLane.add {
                do { try await input.perform(actions) } catch { log.warning("pointer input failed: \(error)") }
            }
        }
        guard let wakeAt = output.wakeAt, var current = viewing, !current.wakeScheduled else { return }
        current.wakeScheduled = true
        viewing = current
        let delay = max(0, wakeAt - ProcessInfo.processInfo.systemUptime)
        Task {
            try? await Task.sleep(for: .seconds(delay))
            await self.pointerWake(serial)
        }
    }

    private func pointerWake(_ serial: UInt64) {
        guard var current = viewing, current.serial == serial else { return }
        current.wakeScheduled = false
        let output = current.pointer.wake(now: ProcessInfo.processInfo.systemUptime)
        viewing = current
        apply(output, serial: serial)
    }

    /// The one stop path: every end of viewing comes here (`stopScreen`, the viewer's connection closing or
    /// its device revoked, lock, `allow-screen off`, `touchdeck disconnect-viewer`, the host stopping, a
    /// capture or encoder failure, another connection of the same device taking over). It stops the stream,
    /// releases a held pointer button, tells the viewer why (`reason` nil: the connection is gone or
    /// starts a new stream at once) and the host's user.
    func stopViewing(_ reason: HostMessage.ScreenStopped.Reason?, quietly: Bool = false) {
        guard var current = viewing else { return }
        viewing = nil
        if let sound = current.sound { endSound(sound, viewer: current.viewer.name) }
        if let stream = current.stream {
            // Joining the capture thread may wait for a frame being encoded: not on the actor.
            Task.detached { stream.stop() }
        }
        let release = current.pointer.releaseAll()
        if !release.isEmpty {
            let input = desktop.input
            pointerLane.add { try? await input.perform(release) }
        }
        if let reason { sendSealed(.screenStopped(.init(reason: reason)), to: current.connection) }
        guard current.stream != nil else { return }
        log.notice(
            "screen viewing stopped", ["device.name": current.viewer.name, "reason": reason?.rawValue ?? "closed"])
        if !quietly { notifier.notify("TouchDeck: \(current.viewer.name) stopped viewing your screen", "") }
    }

    /// A connection closed: if it was viewing, viewing ends (nobody to tell).
    func connectionClosed(_ id: ConnectionID) {
        if viewing?.connection == id { stopViewing(nil) }
    }

    /// The host is stopping: the viewer is told (`ended`) while the connection still stands, a recording
    /// is finalized, and the speakers are restored before the process goes.
    public func shutdown() async {
        stopViewing(.ended)
        await stopRecording(.ended)
        let sound = desktop.sound
        await Task.detached { sound.settle() }.value
    }

    /// `touchdeck disconnect-viewer`.
    func disconnectViewer() -> ControlResponse {
        guard let current = viewing else { return .failure("nobody is viewing the screen") }
        stopViewing(.ended)
        var response = ControlResponse()
        response.viewer = current.viewer.name
        return response
    }

    /// Who views now, for `touchdeck status`: "NAME (monitor HDMI-1, 1920x1080 at 60 fps)", plus ", with sound".
    var viewerDescription: String? {
        guard let current = viewing else { return nil }
        guard let stream = current.stream else { return "\(current.viewer.name) (starting)" }
        let sound = current.soundRunning ? ", with sound" : ""
        return "\(current.viewer.name) (monitor \(current.monitor.name), \(stream.size.width)x\(stream.size.height) at \(stream.fps) fps\(sound))"
    }
}

extension Rect {
    /// A monitor's rectangle on the desktop.
    init(_ pixels: PixelRect) {
        self.init(x: Double(pixels.x), y: Double(pixels.y), width: Double(pixels.width), height: Double(pixels.height))
    }
}
