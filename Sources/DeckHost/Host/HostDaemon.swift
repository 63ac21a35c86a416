import DeckActions
import DeckDesktop
import DeckLog
import DeckMedia
import DeckTransport
import DeckWayland
import Foundation

/// `touchdeck serve`: certificates, the WebSocket server, the host, the control socket and mDNS, wired
/// together and run until SIGINT or SIGTERM.
public struct HostDaemon {
    /// What `serve` was asked for.
    public struct Options: Sendable {
        public var port: Int
        public var configDirectory: URL
        public var webRoot: URL?
        public var advertise: Bool
        /// Which H.264 encoder screen viewing opens.
        public var encoder: EncoderChoice

        public init(
            port: Int, configDirectory: URL, webRoot: URL?, advertise: Bool = true, encoder: EncoderChoice = .auto
        ) {
            self.port = port
            self.configDirectory = configDirectory
            self.webRoot = webRoot
            self.advertise = advertise
            self.encoder = encoder
        }
    }

    let options: Options
    let log: Logger

    public init(options: Options, log: Logger) {
        self.options = options
        self.log = log
    }

    /// Runs until the process is told to stop.
    public func run() async throws {
        let stopSignal = Self.stopSignal()  // installed first, so an early SIGTERM still cleans up
        let store = try ConfigStore(directory: options.configDirectory)
        let certificates = try prepareCertificates()
        let events = TransportEvents()
        let routes = SetupRoutesBox()
        let configuration = serverConfiguration(certificates)
        let server = WebSocketServer(
            configuration: configuration,
            handler: events.handler { request in
                // Before the routes are rendered the setup paths answer "starting" (503), never 404.
                guard let setup = routes.value else { return SetupRoutes.starting(for: request) }
                return setup.respond(to: request)
            })
        let port = try server.start()
        let address = Self.httpsAddress(port: port, within: certificates.serverIdentity)
        let host = DeckServer(
            link: server, store: store,
            desktop: .live(encoder: options.encoder, configDirectory: options.configDirectory, log: log),
            notifier: .desktop, log: log, port: port, address: address)
        await host.useAuthority(AuthorityStatus(certificates))
        await Self.startTray(for: host)
        await host.publishKnownDevices(to: configuration.knownDevices)
        let setup = Self.setupPublisher(certificates, hostName: host.hostName, port: port)
        setup.start()
        routes.value = setup
        let hostName = host.hostName
        let control = ControlServer(configDirectory: options.configDirectory, log: log) {
            await host.control($0)
        }
        try control.start()
        let mdns = MDNSAdvertiser(name: hostName, port: UInt16(port), log: log)
        if options.advertise { mdns.start() }
        log.notice("serving", ["url": address, "config": options.configDirectory.path])
        let runner = Task { await host.run(events.stream) }
        await stopSignal.value
        log.notice("stopping")
        mdns.stop()
        setup.stop()
        await host.shutdown()
        control.stop()
        server.stop()
        events.finish()
        await runner.value
        log.flushRepeats()
    }

    private func prepareCertificates() throws -> CertificateFiles {
        let certificates = try CertificateStore.prepare(in: options.configDirectory.appendingPathComponent("tls"))
        let fingerprint = ["ca.sha256": certificates.authorityFingerprint]
        if certificates.outcome == .created {
            let message = "created a local certificate authority; each device must trust it once (see the setup page)"
            log.notice(message, fingerprint)
        }
        for notice in AuthorityStatus(certificates).notices { log.warning(notice, fingerprint) }
        return certificates
    }

    /// The setup pages, rendered off the transport thread and again when the addresses change.
    private static func setupPublisher(
        _ certificates: CertificateFiles, hostName: String, port: Int
    ) -> SetupPublisher {
        let caPEM = (try? Data(contentsOf: certificates.authority)) ?? Data()
        let within = certificates.serverIdentity
        return SetupPublisher(
            addresses: { setupAddresses(within: within) },
            render: { addresses in
                SetupRoutes(
                    hostName: hostName, addresses: addresses, port: port, caPEM: caPEM,
                    caFingerprint: certificates.authorityFingerprint,
                    authorityReplaced: certificates.outcome == .replacedAuthority)
            })
    }

    private func serverConfiguration(_ certificates: CertificateFiles) -> ServerConfiguration {
        var configuration = ServerConfiguration(certificate: certificates, port: options.port, webRoot: options.webRoot)
        // PROTOCOL §0: ping every 5 s, drop a peer silent for 15 s.
        configuration.pingInterval = 5
        configuration.deadPeerTimeout = 15
        // The front door (DESIGN.md#transport); live tests shorten it through the environment so they need not
        // wait 30 s.
        if let overrides = ProcessInfo.processInfo.environment[FrontDoorLimits.environmentKey] {
            configuration.frontDoor = FrontDoorLimits(overrides: overrides)
        }
        return configuration
    }

    /// `https://<first LAN address>:port/` among those the certificate carries, else `name.local`, else localhost.
    public static func httpsAddress(port: Int, within certified: LocalIdentity) -> String {
        "https://\(primaryAddress(within: certified)):\(port)/"
    }

    /// `name.local` first, then LAN addresses, for the setup page's links: only those that are up now and
    /// that the server certificate carries (a link to any other would fail TLS).
    static func setupAddresses(within certified: LocalIdentity) -> [String] {
        let identity = LocalIdentity.current()
        let names = identity.dnsNames.filter { $0.hasSuffix(".local") && certified.dnsNames.contains($0) }
        let lan = identity.ipAddresses.filter { !$0.hasPrefix("127.") && $0 != "::1" }
        return names + lan.filter(certified.ipAddresses.contains)
    }

    static func primaryAddress(within certified: LocalIdentity) -> String {
        let identity = LocalIdentity.current()
        let lan = identity.ipAddresses.first {
            !$0.hasPrefix("127.") && $0 != "::1" && !$0.contains(":") && certified.ipAddresses.contains($0)
        }
        return lan ?? certified.dnsNames.first { $0.hasSuffix(".local") } ?? "localhost"
    }

    /// The tray icon and menu on the session bus (none without a session bus: nothing else changes).
    static func startTray(for host: DeckServer) async {
        let look = await host.trayLook()
        let tray = await Task.detached {
            try? StatusNotifier(look) { id in Task { await host.trayClicked(id) } }
        }.value
        if let tray { await host.attach(TrayLink(show: tray.show)) }
    }

    /// A task that finishes at the first SIGINT or SIGTERM; the handlers are in place when this returns.
    private static func stopSignal() -> Task<Void, Never> {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            SignalSources.keep(source)
        }
        return Task {
            for await _ in stream { return }
        }
    }
}

/// Holds the setup pages, made once the port and CA are known; the transport thread reads them.
/// `@unchecked Sendable`: every access holds the lock.
final class SetupRoutesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: SetupPublisher?
    var value: SetupPublisher? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Signal sources live as long as the process. `@unchecked Sendable`: guarded by the lock.
enum SignalSources {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let lock = NSLock()
    static func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }
}
