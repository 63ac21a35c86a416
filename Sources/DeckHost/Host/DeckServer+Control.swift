import DeckKit
import DeckTransport
import Foundation

extension DeckServer {
    /// Answers a request from the CLI.
    public func control(_ request: ControlRequest) async -> ControlResponse {
        defer { refreshTray() }
        switch request.command {
        case .pair: return pair()
        case .devices: return listing()
        case .status: return status()
        case .allowScreen: return allowScreen(request.name, request.on)
        case .allowEdit: return allowEdit(request.name, request.on)
        case .allowClipboard: return allowClipboard(request.name, request.on)
        case .pasteChord:
            return setPermission(
                request.name, request.on, what: "paste chord", change: { $0.pasteChord = $1 }, tell: { _, _ in })
        case .primarySelection:
            return setPermission(
                request.name, request.on, what: "primary selection", change: { $0.primarySelection = $1 },
                tell: { id, _ in self.primarySelectionChanged(for: id) })
        case .revoke: return revoke(request.name)
        case .rename: return rename(request.name, to: request.newName)
        case .disconnectViewer: return disconnectViewer()
        case .record: return await record(request)
        case .profiles, .switchProfile, .exportProfile, .importProfile, .deleteProfile, .renameProfile, .profileApps:
            return profileControl(request)
        case .keySet, .keyGet, .press: return await keyControl(request)
        }
    }

    func pair() -> ControlResponse {
        var response = ControlResponse()
        response.pin = services.issuePin()
        response.url = address
        response.expiresIn = 300
        response.hostName = hostName
        response.caFingerprint = authority?.fingerprint
        return response
    }

    func listing() -> ControlResponse {
        var response = ControlResponse()
        let live = authorizedConnections
        response.devices = devices.records.map { record in
            let note = ProtocolVersion.gap(
                device: record.lastProtocol ?? ProtocolVersion.current, host: ProtocolVersion.current)
            return DeviceSummary(
                id: record.id, name: record.name, screenAllowed: record.screenAllowed, editAllowed: record.editAllowed,
                lastSeen: record.lastSeen,
                connections: live.filter { $0.1 == record.id }.count, protocolVersion: record.lastProtocol,
                note: note == .deviceOutdated ? "(app update needed)" : "", clipboardAllowed: record.clipboardAllowed)
        }
        return response
    }

    private func status() -> ControlResponse {
        var response = listing()
        response.hostName = hostName
        response.port = port
        response.url = address
        response.pendingConnections = connections.count - authorizedConnections.count
        response.problems = store.problems
        response.commandLogs = desktop.commandLogs
        response.viewer = viewerDescription
        response.caFingerprint = authority?.fingerprint
        response.caNotices = authority?.notices
        return response
    }

    func oneDevice(_ name: String?) -> Result<DeviceRecord, ControlResponseFailure> {
        guard let name, !name.isEmpty else { return .failure(.init("name a device (see `touchdeck devices`)")) }
        let found = devices.matching(name)
        guard !found.isEmpty else { return .failure(.init("no paired device is called \(name)")) }
        guard found.count == 1 else {
            return .failure(.init("\(found.count) devices are called \(name); use the start of the id instead"))
        }
        return .success(found[0])
    }

    /// `touchdeck devices allow-screen NAME on|off`: viewing (and recording) for the device; off stops its viewing.
    func allowScreen(_ name: String?, _ on: Bool?) -> ControlResponse {
        setPermission(
            name, on, what: "screen viewing", change: { $0.screenAllowed = $1 },
            tell: { id, on in
                if !on {
                    self.viewingPasses[id] = nil
                    self.endViewing(of: id, .notAllowed)
                }
                self.sendSealed(.screenPermission(.init(allowed: on)), to: id)
            })
    }

    /// `touchdeck devices allow-edit NAME on|off`: whether the device may change the deck.
    private func allowEdit(_ name: String?, _ on: Bool?) -> ControlResponse {
        setPermission(
            name, on, what: "deck editing", change: { $0.editAllowed = $1 },
            tell: { id, on in self.sendSealed(.editPermission(.init(allowed: on)), to: id) })
    }

    /// `touchdeck devices allow-clipboard NAME on|off`: whether the device trades the clipboard while it views;
    /// applies at once to a viewing under way.
    private func allowClipboard(_ name: String?, _ on: Bool?) -> ControlResponse {
        setPermission(
            name, on, what: "clipboard", change: { $0.clipboardAllowed = $1 },
            tell: { id, _ in
                self.carryOut(self.viewing.clipboardPermission(of: id, allowed: self.clipboardAllowed(for: id)))
            })
    }

    /// Saves one permission of one device, logs it and tells each of its open connections (`tell`).
    private func setPermission(
        _ name: String?, _ on: Bool?, what: String, change: (inout DeviceRecord, Bool) -> Void,
        tell: (ConnectionID, Bool) -> Void
    ) -> ControlResponse {
        guard let on else { return .failure("say on or off") }
        switch oneDevice(name) {
        case .failure(let failure): return .failure(failure.text)
        case .success(let record):
            do {
                try devices.update(id: record.id) { change(&$0, on) }
            } catch {
                return .failure("could not save: \(error)")
            }
            log.notice("\(what) \(on ? "allowed" : "denied")", ["device.name": record.name])
            for (id, deviceId) in authorizedConnections where deviceId == record.id { tell(id, on) }
            return listing()
        }
    }

    /// Forgets the device and closes its connections; its secret no longer authenticates.
    func revoke(_ name: String?) -> ControlResponse {
        switch oneDevice(name) {
        case .failure(let failure): return .failure(failure.text)
        case .success(let record):
            do {
                try devices.remove(id: record.id)
            } catch {
                return .failure("could not save: \(error)")
            }
            for (id, deviceId) in authorizedConnections where deviceId == record.id {
                endViewing(of: id, nil)
                end(id, reason: "device revoked")
            }
            log.notice("revoked a device", ["device.name": record.name])
            return listing()
        }
    }
}

struct ControlResponseFailure: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
