import DeckActions
import DeckDesktop
import DeckKit
import DeckLog
import DeckTransport
import Foundation

// A running viewing: options, the pointer, the watch, and the one stop path every end goes through.
extension ViewingMachine {
    /// `stopScreen`: a device that is not viewing still hears `screenStopped{requested}`.
    mutating func stopScreen(from id: ConnectionID) -> [Action] {
        guard viewing?.connection == id else { return [.send(.screenStopped(.init(reason: .requested)), to: id)] }
        return stop(.requested)
    }

    /// `screenOptions`: a new rate for the stream, sound on or off (neither restarts the video).
    mutating func options(_ options: DeviceMessage.ScreenOptions, from id: ConnectionID) -> [Action] {
        guard let current = viewing, current.connection == id else { return [] }
        let rate: [Action] = opened.map { [.setFPS($0.stream, options.fps)] } ?? []
        return rate + (options.audio ? joinSound() : stopSound())
    }

    /// `screenOptions{audio:false}`: the video goes on without sound.
    private mutating func stopSound() -> [Action] {
        guard let current = viewing else { return [] }
        let leave = leaveSound(of: current)
        update { $0.sound = .off }
        // A start that waited only for this sound now announces.
        return leave + announceIfReady()
    }

    /// `requestKeyframe`: the next frame is a keyframe, even on a still screen.
    func requestKeyframe(from id: ConnectionID) -> [Action] {
        guard viewing?.connection == id, let opened else { return [] }
        return [.requestKeyframe(opened.stream)]
    }

    /// `pointer`: mapped into the viewed monitor once the stream runs; ignored unless `id` is viewing.
    mutating func pointer(_ event: DeviceMessage.Pointer, from id: ConnectionID, now: TimeInterval) -> [Action] {
        guard var current = viewing, current.connection == id, opened != nil else { return [] }
        let output = current.pointer.receive(event, now: now)
        update { $0.pointer = current.pointer }
        return apply(output)
    }

    /// The wake-up a held-back move asked for.
    mutating func pointerWake(_ serial: UInt64, now: TimeInterval) -> [Action] {
        guard var current = viewing, current.serial == serial else { return [] }
        let output = current.pointer.wake(now: now)
        update {
            $0.pointer = current.pointer
            $0.wakeScheduled = false
        }
        return apply(output)
    }

    private mutating func apply(_ output: PointerDriver.Output) -> [Action] {
        var actions: [Action] = output.actions.isEmpty ? [] : [.input(output.actions)]
        guard let wakeAt = output.wakeAt, let current = viewing, !current.wakeScheduled else { return actions }
        update { $0.wakeScheduled = true }
        actions.append(.wakePointer(serial: current.serial, at: wakeAt))
        return actions
    }

    /// The watch looked: still allowed, still unlocked? Otherwise viewing stops at once; else it looks again in
    /// a second.
    mutating func watched(_ serial: UInt64, allowed: Bool, locked: Bool) -> [Action] {
        guard case .running(let current, _) = stage, current.serial == serial else { return [] }
        let decision = ScreenAccess.decide(
            allowed: allowed, permission: true, locked: locked, viewer: current.viewer,
            requester: current.viewer.deviceId)
        switch decision {
        case .notAllowed: return stop(.notAllowed)
        case .locked: return stop(.locked)
        default: return [.watch(serial: serial, connection: current.connection, after: .seconds(1))]
        }
    }

    /// The capture or the encoder failed while streaming.
    mutating func streamFailed(_ serial: UInt64, _ failure: String) -> [Action] {
        guard isCurrent(serial) else { return [] }
        return [.log(.init(level: .error, message: "screen viewing failed: \(failure)"))] + stop(.error)
    }

    /// Ends viewing if `id` is the viewer's connection (closed: `reason` nil, nobody to tell; revoked;
    /// `allow-screen off`).
    mutating func end(_ id: ConnectionID, _ reason: HostMessage.ScreenStopped.Reason?) -> [Action] {
        guard viewing?.connection == id else { return [] }
        return stop(reason)
    }

    /// The one stop path: every end of viewing comes here (`stopScreen`, the viewer's connection closing or
    /// its device revoked, lock, `allow-screen off`, `touchdeck disconnect-viewer`, the host stopping, a
    /// capture or encoder failure, another connection of the same device taking over). It leaves the sound,
    /// stops the stream, releases a held pointer button, tells the viewer why (`reason` nil: the connection is
    /// gone or starts a new stream at once) and the host's user (not when `quietly`: a new viewing follows).
    mutating func stop(_ reason: HostMessage.ScreenStopped.Reason?, quietly: Bool = false) -> [Action] {
        guard var current = viewing else { return [] }
        let stream = opened?.stream
        enter(.idle)
        var actions = leaveSound(of: current)
        if let ticket = current.clipboard { actions.append(.stopClipboard(ticket: ticket)) }
        if let stream { actions.append(.stopStream(stream)) }
        let release = current.pointer.releaseAll()
        if !release.isEmpty { actions.append(.input(release)) }
        if let reason { actions.append(.send(.screenStopped(.init(reason: reason)), to: current.connection)) }
        // A viewing that never had a stream was never announced to the user either.
        guard stream != nil else { return actions }
        let name = current.viewer.name
        let why = ["device.name": name, "reason": reason?.rawValue ?? "closed"]
        actions.append(.log(.init(level: .notice, message: "screen viewing stopped", metadata: why)))
        if !quietly { actions.append(.notify(title: "TouchDeck: \(name) stopped viewing your screen", body: "")) }
        return actions
    }
}
