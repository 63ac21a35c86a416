import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import DeckLog
import DeckTransport
import Foundation

/// The daemon's state: connections and their sessions, the layout, the paired devices and the PIN gate.
/// One actor owns all of it; transport events arrive in order through `run`.
public actor DeckServer {
    struct Connection {
        var session: SessionMachine<CryptoServices>
        let info: ConnectionInfo
    }

    let link: any DeviceLink
    let store: ConfigStore
    let desktop: HostDesktop
    let appsMessage: AppsMessage
    let notifier: Notifier
    let log: Logger
    let now: @Sendable () -> Date
    let hostName: String
    /// The HTTPS address devices open, for `touchdeck pair` and the setup page.
    public let address: String
    let port: Int
    var config: HostConfig
    let devices: DeviceBook
    let services: CryptoServices
    var connections: [ConnectionID: Connection] = [:]
    /// The volume state devices were last sent; a repeated report is not sent again.
    var volumeShown: VolumeState?
    /// The media player's state devices were last sent (`followMedia`).
    var mediaShown = HostMessage.MediaState.none
    var volumeLane = SerialLane()
    /// The desktop's keyboard: each connection's keys in order, every device's in short turns (DeckServer+Keyboard).
    var keyboard = KeyboardTurns()
    /// Hotkeys held while a finger is on them, by connection (DeckServer+Holding), and how long one stays down at
    /// most: `KeyHold.maxSeconds`, or `TOUCHDECK_HOLD_SECONDS` (the tests' shorter limit).
    var heldKeys = HeldKeys()
    var holdLimit: Duration = .seconds(
        ProcessInfo.processInfo.environment["TOUCHDECK_HOLD_SECONDS"].flatMap(Double.init)
            ?? Double(KeyHold.maxSeconds))
    /// Who views the screen now, and their stream (one viewer at a time; DeckServer+Viewing).
    var viewing = Viewing()
    /// Pointer actions reach the desktop in the order they were decided.
    var pointerLane = SerialLane()
    /// Done once every stream stopped so far has stopped (and queued its made monitor's removal): Extend waits
    /// for it, so a device that turned gets its new monitor after the old one is gone, in the old one's place.
    var streamsStopped: Task<Void, Never>?
    /// How each monitor Extend made and a stream shows is taken away, by monitor name; a device that turned takes it
    /// over for its next stream (`keepMonitor`).
    var monitorReleases: [String: MonitorRelease] = [:]
    /// The monitor a device that turned keeps, between `keepMonitor` and the next `openStream`.
    var keptMonitor: Monitor?
    /// The local CA's fingerprint and notices, for the CLI; set by the daemon once the certificates are ready.
    var authority: AuthorityStatus?
    /// The recording, its folder and fetches in flight (DeckServer+Recording).
    var recordingHost = RecordingHost(library: .live())
    /// Multi-actions that run and toggles whose action runs, by slot (DeckServer+CompoundKeys).
    var compoundRuns = CompoundRuns()
    /// The layouts each profile had before its last 20 edits, for `undo` (in memory only).
    var undoHistory = UndoHistory()
    /// The follow of the computer's clipboard for the viewer, while one runs (DeckServer+Clipboard).
    var clipboardFollowing: ClipboardFollowing?
    /// Devices that may not view and asked the computer's user, by the connection that asked (DeckServer+Asking).
    var screenQuestions: [ConnectionID: ScreenQuestion] = [:]
    /// Devices without the clipboard permission that asked to paste, by connection (DeckServer+ClipboardAsking).
    var clipboardQuestions: [ConnectionID: ClipboardQuestion] = [:]
    /// Connections the user answered "Allow once": each may view until its viewing ends (`true` once it began).
    var viewingPasses: [ConnectionID: Bool] = [:]
    /// How long a question waits for its answer: 60 s, or `TOUCHDECK_ASK_SECONDS` (the tests' shorter wait).
    let askTimeout: Duration = .seconds(
        ProcessInfo.processInfo.environment["TOUCHDECK_ASK_SECONDS"].flatMap(Double.init) ?? 60)
    var questionSerial: UInt64 = 0
    /// The tray icon and menu, when the daemon made one (DeckServer+Tray), and what its menu's ids stand for.
    var tray: TrayLink?
    var trayTargets: [Int32: TrayTarget] = [:]
    /// Each device's submenu id, kept while the host runs: a click meant for one device never reaches another
    /// when the list changed after the panel read the menu.
    var trayDeviceIds: [String: Int32] = [:]
    /// State commands that run and the keys' live looks (DeckServer+KeyState, issue 23).
    var keyStates = KeyStates()
    /// The profile shown for the app that has the focus (DeckServer+FocusProfiles).
    var focusFollow = FocusFollow()

    /// A host over `link` that keeps its files in `store` and reaches the computer through `desktop`.
    public init(
        link: any DeviceLink, store: ConfigStore, desktop: HostDesktop, notifier: Notifier, log: Logger,
        port: Int, address: String, hostName: String? = nil,
        now: @escaping @Sendable () -> Date = Date.init,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        makePin: @escaping @Sendable () -> String = PairingGate.randomPin
    ) {
        let config = Self.loadConfig(store, starterApps: desktop.starterApps, log: log)
        let devices = DeviceBook(store: store)
        let name = hostName ?? config.hostName ?? DeckServer.computerName()
        self.link = link
        self.store = store
        self.desktop = desktop
        appsMessage = AppsMessage(catalog: desktop.apps)
        self.notifier = notifier
        self.log = log
        self.now = now
        self.port = port
        self.address = address
        self.config = config
        self.devices = devices
        self.hostName = name
        services = CryptoServices(
            hostName: name, devices: devices, gate: PairingGate(makePin: makePin),
            backoffFile: PairingBackoffFile(directory: store.directory, wallClock: now, clock: clock), clock: clock,
            log: log
        ) { pin, device, requests in
            // The PIN goes to the desktop notification only, never to the log.
            log.notice("a new device asks to pair; its PIN is shown in a desktop notification", ["device.name": device])
            let others = requests > 1 ? " (\(requests) requests since the last PIN)" : ""
            notifier.notify("TouchDeck: \(device.isEmpty ? "a device" : device) wants to pair\(others)", "PIN \(pin)")
        }
        for problem in store.problems { log.error(problem) }
    }

    /// `config.json`; on a first run (no such file) the starter deck, saved at once so that it stays the deck the
    /// user met whatever the desktop's defaults become (`StarterDeck`). An existing file is never changed here.
    static func loadConfig(_ store: ConfigStore, starterApps: (@Sendable () -> StarterApps)?, log: Logger)
        -> HostConfig
    {
        guard let starterApps, !FileManager.default.fileExists(atPath: store.url(.config).path) else {
            return store.load(.config, as: HostConfig.self, fallback: HostConfig())
        }
        let config = HostConfig(layout: StarterDeck.layout(starterApps()))
        do {
            try store.save(config, to: .config)
            let keys = config.layout.pages[0].compactMap { $0?.label }
            log.notice("first run: a starter deck of \(keys.count) keys", ["keys": keys.joined(separator: ", ")])
        } catch {
            log.error("could not save the starter deck: \(error)")
        }
        return config
    }

    /// Handles transport events until the stream ends, and meanwhile sends every volume change to the devices.
    public func run(_ events: AsyncStream<TransportEvent>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followVolume() }
            group.addTask { await self.followMedia() }
            group.addTask { await self.followMic() }
            group.addTask { await self.followLevels() }
            group.addTask { await self.followFocus() }
            for await event in events {
                handle(event)
                refreshTray()
            }
            group.cancelAll()
        }
    }

    /// Handles one transport event. How many connections may wait to authorize, for how long and with how
    /// large messages is the transport's front door (`FrontDoorLimits`): it refuses or closes them before they
    /// reach this actor.
    public func handle(_ event: TransportEvent) {
        switch event {
        case .opened(let id, let info):
            connections[id] = Connection(session: SessionMachine(peer: info.remoteAddress), info: info)
        case .text(let text, let id):
            guard var connection = connections[id] else { return }
            let wasWaiting = connection.session.authorizedDevice == nil
            let actions = connection.session.receive(text: text, now: now(), services: services)
            connections[id] = connection
            // Before `authorized` goes out, so the device's first large message already meets the full limit.
            if wasWaiting, connection.session.authorizedDevice != nil { link.authorize(id) }
            perform(actions, for: id)
        case .binary(let id):
            guard var connection = connections[id] else { return }
            let actions = connection.session.receiveBinary()
            connections[id] = connection
            perform(actions, for: id)
        case .closed(let id):
            connectionClosed(id)
            recordingHost.fetching.remove(id)
            letGoAll(of: id)
            keyboard.lanes[id] = nil
            connections[id] = nil
            syncStateCommands()
        }
    }

    /// Carries out what a session asked for.
    func perform(_ actions: [SessionAction], for id: ConnectionID) {
        for action in actions {
            switch action {
            case .send(let message): link.send(text: String(decoding: message.encode(), as: UTF8.self), to: id)
            case .sendSealed(let message): sendSealed(message, to: id)
            case .close(let code, let reason):
                log.info("closing a connection", ["conn": "\(id)", "close.code": "\(code)", "close.reason": reason])
                link.close(id, code: code)
            case .paired(let record): remember(record)
            case .authorized(let deviceId, let protocolVersion): authorized(id, deviceId, protocolVersion)
            case .request(let message): handleRequest(message, from: id)
            }
        }
    }

    func sendSealed(_ message: HostMessage, to id: ConnectionID) {
        guard let text = connections[id]?.session.seal(message) else { return }
        link.send(text: text, to: id)
    }

    private func remember(_ record: DeviceRecord) {
        do {
            try devices.add(record)
            log.notice("paired a new device", ["device.name": devices.record(id: record.id)?.name ?? record.name])
        } catch {
            log.error("could not save the new device: \(error)", ["device.name": record.name])
        }
    }

    private func authorized(_ id: ConnectionID, _ deviceId: String, _ protocolVersion: Int) {
        // Revoked between authStart and authFinish: the proof was made with a secret that is gone now.
        guard devices.record(id: deviceId) != nil else { return end(id, reason: "device revoked") }
        try? devices.update(id: deviceId) {
            $0.lastSeen = now()
            $0.lastProtocol = protocolVersion
        }
        let name = devices.record(id: deviceId)?.name ?? ""
        log.info("device authorized", ["conn": "\(id)", "device.name": name, "device.protocol": "\(protocolVersion)"])
        sendSealed(layoutMessage(for: id), to: id)
        sendProfiles(to: id)
        sendVolume(to: id)
        sendRecordState(to: id)
        sendMediaState(to: id)
        keyStatesShown(to: id)
    }

    /// Ends one session (it says goodbye the way its machine decides) and closes the connection.
    func end(_ id: ConnectionID, reason: String) {
        guard var connection = connections[id] else { return }
        let actions = connection.session.end(reason: reason)
        connections[id] = connection
        perform(actions, for: id)
    }

    /// Every authorized connection.
    var authorizedConnections: [(ConnectionID, String)] {
        connections.compactMap { id, c in c.session.authorizedDevice.map { (id, $0) } }
    }

    /// Sends a message to every authorized device (and only to those).
    func broadcast(_ message: HostMessage) {
        for (id, _) in authorizedConnections { sendSealed(message, to: id) }
    }

    /// The computer's name for mDNS and `hostName`.
    public static func computerName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "TouchDeck host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "TouchDeck host" : name
    }
}
