import DeckActions
import DeckDesktop
import DeckKit
import DeckLog
import DeckTransport

// Starting: access, the stream and the sound, and `screenStarted` once nothing is waited for.
extension ViewingMachine {
    typealias Action = ViewingAction<Stream, Sound>

    /// `startScreen`: a device not allowed is refused before the desktop is asked anything.
    func ask(_ request: DeviceMessage.StartScreen, from id: ConnectionID, allowed: Bool) -> [Action] {
        guard allowed else { return [.send(.screenDenied(.init(reason: .notAllowed)), to: id)] }
        return [.look(request, from: id)]
    }

    /// The desktop was looked at: access is decided (allowed → capture possible → unlocked → nobody else), then
    /// the stream opens; when the desktop will ask its user first (the ScreenCast portal's first use), the device
    /// hears `screenPending{approval}` at once, `screenStarted` or `screenDenied` later.
    mutating func looked(_ request: DeviceMessage.StartScreen, from id: ConnectionID, _ look: ViewingLook) -> [Action] {
        let decision = ScreenAccess.decide(
            allowed: look.allowed, permission: look.monitors != nil, locked: look.locked, viewer: viewing?.viewer,
            requester: look.deviceId)
        if let denial = decision.denial { return [.send(.screenDenied(denial), to: id)] }
        if let reason = look.extendUnavailable, request.extend != nil {
            return [.send(.screenDenied(.init(reason: .cannotExtend, detail: reason)), to: id)]
        }
        guard let monitor = Self.monitor(for: request, among: look.monitors) else {
            let known = look.monitors?.map { "\($0.id)" }.joined(separator: ", ") ?? ""
            let text = "no display has id \(request.displayId) (ids: \(known))"
            return [
                .send(.error(.init(code: .badMessage, message: text, request: DeviceMessage.StartScreen.type)), to: id)
            ]
        }
        var actions: [Action] = look.needsApproval ? [.send(.screenPending(.init(reason: .approval)), to: id)] : []
        // The same device again (another monitor, a reconnect, a second tab): its old stream ends first. A device
        // that turned asks Extend again: the monitor made for it is kept for the new stream.
        if let current = viewing {
            if current.connection == id, current.extend != nil, request.extend != nil, opened != nil {
                actions.append(.keepMonitor(current.monitor))
            }
            actions += stop(current.connection == id ? nil : .replaced, quietly: true)
        }
        let viewing = Viewing(
            serial: nextTicket(), connection: id, viewer: ScreenAccess.Viewer(deviceId: look.deviceId, name: look.name),
            monitor: monitor, displayId: monitor.id, extend: request.extend,
            pointer: PointerDriver(monitor: Rect(monitor.frame)), clipboardAllowed: look.clipboard)
        enter(.starting(viewing, nil))
        if request.audio { actions += joinSound() }
        let wanted = ViewingStreamRequest(
            connection: id, monitor: monitor, maxSide: request.maxSide, fps: request.fps, extend: request.extend)
        return actions + [.openStream(serial: viewing.serial, wanted)]
    }

    /// The listed monitor a start asks for; for Extend, the asked size (the made monitor replaces it once opened).
    private static func monitor(for request: DeviceMessage.StartScreen, among monitors: [Monitor]?) -> Monitor? {
        guard let extend = request.extend else { return monitors?.first { $0.id == request.displayId } }
        let frame = PixelRect(x: 0, y: 0, width: extend.width, height: extend.height)
        return Monitor(id: request.displayId, name: "Extend", frame: frame, scale: extend.scale)
    }

    /// The stream opened: kept, or stopped when its viewing ended (or moved on) meanwhile.
    mutating func streamOpened(_ serial: UInt64, _ opened: Opened) -> [Action] {
        guard case .starting(var viewing, nil) = stage, viewing.serial == serial else {
            return [.stopStream(opened.stream)]
        }
        if let made = opened.made {
            (viewing.monitor, viewing.displayId) = (made.monitor, made.monitor.id)
            viewing.pointer = PointerDriver(monitor: Rect(made.pointerArea))
        }
        enter(.starting(viewing, opened))
        return announceIfReady()
    }

    /// The stream did not open: the viewer is told `noPermission`, unless its viewing already ended.
    /// `cannotExtend`: the monitor for Extend could not be made (the device hears `screenDenied{cannotExtend}`).
    mutating func streamDidNotOpen(_ serial: UInt64, error: String, cannotExtend: Bool = false) -> [Action] {
        guard case .starting(let viewing, nil) = stage, viewing.serial == serial else { return [] }
        enter(.idle)
        let name = viewing.viewer.name
        let denial =
            cannotExtend
            ? HostMessage.ScreenDenied(reason: .cannotExtend, detail: error) : .init(reason: .noPermission)
        return [
            .log(
                .init(
                    level: .error, message: "screen viewing could not start: \(error)", metadata: ["device.name": name])
            )
        ]
            + leaveSound(of: viewing) + [.send(.screenDenied(denial), to: viewing.connection)]
    }

    /// Subscribes the viewer's sound, unless it is already joining or running.
    mutating func joinSound() -> [Action] {
        guard let current = viewing, case .off = current.sound else { return [] }
        let ticket = nextTicket()
        update { $0.sound = .joining(ticket: ticket, nil) }
        return [.joinSound(ticket: ticket, connection: current.connection)]
    }

    /// The actor subscribed (`sound`), or could not (nil: the connection is gone). A sound whose join was
    /// turned off or whose viewing ended meanwhile is left at once.
    mutating func soundJoined(_ ticket: UInt64, _ sound: Sound?) -> [Action] {
        guard case .joining(ticket, nil) = viewing?.sound else {
            return sound.map { [.leaveSound($0, viewer: viewing?.viewer.name ?? "")] } ?? []
        }
        update { $0.sound = sound.map { .joining(ticket: ticket, $0) } ?? .off }
        return sound == nil ? announceIfReady() : []
    }

    /// The capture said whether the sound runs (`error` nil): a failure leaves the video without sound.
    mutating func soundStarted(_ ticket: UInt64, error: String?) -> [Action] {
        guard let current = viewing, case .joining(ticket, let sound?) = current.sound else { return [] }
        var actions: [Action] = []
        if let error {
            let name = current.viewer.name
            actions.append(
                .log(
                    .init(
                        level: .warning, message: "sound for the viewer could not start: \(error)",
                        metadata: ["device.name": name])))
            actions.append(.leaveSound(sound, viewer: name))
            update { $0.sound = .off }
        } else {
            update { $0.sound = .running(ticket: ticket, sound) }
        }
        return actions + announceIfReady()
    }

    /// `screenStarted` once the stream runs and no sound is joining; then the lock and permission are watched.
    mutating func announceIfReady() -> [Action] {
        guard case .starting(let viewing, let opened?) = stage else { return [] }
        if case .joining = viewing.sound { return [] }
        enter(.running(viewing, opened))
        let started = HostMessage.ScreenStarted(
            displayId: viewing.displayId, width: opened.width, height: opened.height, fps: opened.fps,
            audio: soundRunning, viewOnly: opened.viewOnly)
        let (name, monitor) = (viewing.viewer.name, viewing.monitor.name)
        let metadata = [
            "device.name": name, "display": monitor, "size": "\(opened.width)x\(opened.height)", "fps": "\(opened.fps)",
        ]
        // The follow first: a copy made once the viewer hears `screenStarted` is seen.
        return followClipboard() + [
            .send(.screenStarted(started), to: viewing.connection),
            .log(.init(level: .notice, message: "screen viewing started", metadata: metadata)),
            .notify(
                title: "TouchDeck: \(name) is viewing your screen",
                body: "Monitor \(monitor). End it with: touchdeck disconnect-viewer"),
            .watch(serial: viewing.serial, connection: viewing.connection, after: .zero),
        ]
    }

    /// Leaves the sound of `viewing`, if it joined one.
    func leaveSound(of viewing: Viewing) -> [Action] {
        switch viewing.sound {
        case .off, .joining(_, nil): []
        case .joining(_, let sound?), .running(_, let sound): [.leaveSound(sound, viewer: viewing.viewer.name)]
        }
    }
}
