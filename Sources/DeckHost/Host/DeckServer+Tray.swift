import DeckActions
import DeckKit
import DeckWayland
import Foundation

/// The tray as the actor sees it: what shows a look, and whether a panel shows it (for `doctor`).
public struct TrayLink: Sendable {
    public let show: @Sendable (StatusNotifier.Look) -> Void
    public init(show: @escaping @Sendable (StatusNotifier.Look) -> Void) { self.show = show }
}

/// What a menu item does.
enum TrayTarget: Equatable {
    case pair, stopViewing, startRecording, stopRecording, openDeck, quit
    case allowScreen(device: String, on: Bool)
    case revoke(device: String)
}

// The tray menu (docs/ARCHITECTURE.md "Tray"): built from the actor's state after every event, control request and
// viewing or recording change; shown only when it differs. Its clicks come back here.
extension DeckServer {
    static let trayIcon = "touchdeck-symbolic"
    static let trayViewingIcon = "touchdeck-viewing-symbolic"
    static let trayRecordingIcon = "touchdeck-recording-symbolic"

    /// The daemon's tray: its look from now on follows this host.
    public func attach(_ link: TrayLink) {
        tray = link
        refreshTray()
    }

    /// The look for now; also remembers what each id stands for.
    func trayLook() -> StatusNotifier.Look {
        var targets: [Int32: TrayTarget] = [:]
        let connected = Set(authorizedConnections.map(\.1)).count
        let viewer = viewing.viewing?.viewer.name
        let recording = recordingHost.machine.isBusy
        var status =
            connected == 0 ? "No device connected" : "\(connected) device\(connected == 1 ? "" : "s") connected"
        if let viewer { status += " · \(viewer) views the screen" }
        if recording { status += " · recording" }
        var items: [StatusNotifier.Item] = [
            .init(id: 1, label: status, kind: .label), .init(id: 2, label: "", kind: .separator),
            .init(id: 3, label: "Pair a device…"),
        ]
        targets[3] = .pair
        for record in devices.records.sorted(by: { $0.name < $1.name }) {
            let base = trayDeviceIds[record.id] ?? Int32(100 + trayDeviceIds.count * 10)
            trayDeviceIds[record.id] = base
            items.append(
                .init(
                    id: base, label: record.name.isEmpty ? "(unnamed)" : record.name,
                    kind: .submenu([
                        .init(id: base + 1, label: "Allow screen", kind: .check(record.screenAllowed)),
                        .init(id: base + 2, label: "Revoke…"),
                    ])))
            targets[base + 1] = .allowScreen(device: record.id, on: !record.screenAllowed)
            targets[base + 2] = .revoke(device: record.id)
        }
        items.append(.init(id: 4, label: "", kind: .separator))
        if viewer != nil {
            items.append(.init(id: 5, label: "Stop viewing"))
            targets[5] = .stopViewing
        }
        items.append(.init(id: 6, label: recording ? "Stop recording" : "Start recording"))
        targets[6] = recording ? .stopRecording : .startRecording
        items += [
            .init(id: 7, label: "Open the deck in a browser"), .init(id: 8, label: "", kind: .separator),
            .init(id: 9, label: "Quit"),
        ]
        targets[7] = .openDeck
        targets[9] = .quit
        trayTargets = targets
        let icon = recording ? Self.trayRecordingIcon : viewer != nil ? Self.trayViewingIcon : Self.trayIcon
        return StatusNotifier.Look(icon: icon, title: "TouchDeck", status: status, items: items)
    }

    func refreshTray() {
        guard let tray else { return }
        tray.show(trayLook())
    }

    /// A click in the menu (any item; ids that do nothing are ignored).
    public func trayClicked(_ id: Int32) async {
        guard let target = trayTargets[id] else { return }
        defer { refreshTray() }
        switch target {
        case .pair:
            let response = pair()
            guard let pin = response.pin else { return }
            log.notice("a PIN was asked for from the tray; it is shown in a desktop notification")
            showPairing(pin)
        case .allowScreen(let device, let on):
            guard let name = devices.record(id: device)?.name else { return }
            _ = allowScreen(name, on)
        case .revoke(let device):
            guard let name = devices.record(id: device)?.name else { return }
            confirmRevoke(device, name)
        case .stopViewing:
            stopViewing(.ended)
        case .startRecording:
            let outcome = await startRecording(displayId: nil, fps: 30, maxSide: nil, maxSeconds: nil, by: "the tray")
            if let denial = outcome.denial { notifier.notify("TouchDeck: not recording", denial.message) }
        case .stopRecording:
            _ = await stopRecording(.requested)
        case .openDeck:
            HostEnvironment.current.startInBackground("xdg-open", [address])
        case .quit:
            log.notice("quit from the tray")
            kill(getpid(), SIGTERM)
        }
    }

    /// The PIN and the QR code of the setup page (as `touchdeck pair` prints them): the code is a PNG, mode 0600,
    /// in the user's runtime dir, shown by the notification's "image-path"; without qrencode or a runtime dir, the
    /// PIN and the links alone.
    private func showPairing(_ pin: String) {
        let setup = SetupLink.page(forApp: address) ?? address
        let title = "TouchDeck: PIN \(pin)"
        let body =
            "A new device: scan the code or open \(setup) (it offers the certificate, then asks for this PIN). "
            + "A device that trusts this computer: open \(address) and type the PIN. Valid 5 minutes."
        let (notifier, runtime) = (notifier, HostEnvironment.current["XDG_RUNTIME_DIR"])
        Task.detached {
            guard let runtime, runtime.hasPrefix("/"), let png = QRCode.png(setup) else {
                return notifier.notify(title, body)
            }
            let path = runtime + "/touchdeck-pair.png"
            try? FileManager.default.removeItem(atPath: path)
            guard FileManager.default.createFile(atPath: path, contents: png, attributes: [.posixPermissions: 0o600])
            else { return notifier.notify(title, body) }
            notifier.notifyWithImage(title, body, path)
        }
    }

    /// "Revoke…" asks first; where the desktop cannot ask, it says how to do it instead.
    private func confirmRevoke(_ device: String, _ name: String) {
        let question = Notifier.Question(
            title: "TouchDeck: revoke \(name)?",
            body: "It will have to pair again with a new PIN before it can use this computer.",
            choices: [.init(key: "revoke", label: "Revoke"), .init(key: "keep", label: "Keep")])
        let (ask, notify) = (notifier.ask, notifier.notify)
        Task.detached {
            let shown = ask(question) { key in
                Task { await self.revokeAnswered(device, revoke: key == "revoke") }
            }
            if shown == nil { notify("TouchDeck: revoke \(name)", "Run: touchdeck devices revoke \"\(name)\"") }
        }
    }

    /// "Revoke" revokes; "Keep", or the question closed, keeps the device (and says so in the log).
    private func revokeAnswered(_ device: String, revoke yes: Bool) {
        guard let name = devices.record(id: device)?.name else { return }
        guard yes else { return log.notice("revoking from the tray was answered Keep: the device stays") }
        _ = revoke(name)
        refreshTray()
    }
}
