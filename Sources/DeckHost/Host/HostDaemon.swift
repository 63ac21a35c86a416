import DeckActions
import DeckTransport
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

        public init(port: Int, configDirectory: URL, webRoot: URL?, advertise: Bool = true) {
            self.port = port
            self.configDirectory = configDirectory
            self.webRoot = webRoot
            self.advertise = advertise
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
        let server = WebSocketServer(
            configuration: serverConfiguration(certificates), handler: events.handler { routes.value?.respond(to: $0) })
        let port = try server.start()
        let address = Self.httpsAddress(port: port)
        let host = DeckServer(
            link: server, store: store, desktop: .live(), notifier: .desktop, log: log, port: port, address: address)
        let hostName = host.hostName
        routes.value = SetupRoutes(
            hostName: hostName, addresses: Self.setupAddresses(), port: port,
            caPEM: (try? Data(contentsOf: certificates.authority)) ?? Data())
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
        control.stop()
        server.stop()
        events.finish()
        await runner.value
        log.flushRepeats()
    }

    private func prepareCertificates() throws -> CertificateFiles {
        let certificates = try CertificateStore.prepare(in: options.configDirectory.appendingPathComponent("tls"))
        if certificates.outcome == .created {
            log.notice("created a local certificate authority; each device must trust it once (see the setup page)")
        }
        return certificates
    }

    private func serverConfiguration(_ certificates: CertificateFiles) -> ServerConfiguration {
        var configuration = ServerConfiguration(certificate: certificates, port: options.port, webRoot: options.webRoot)
        // PROTOCOL §0: ping every 5 s, drop a peer silent for 15 s.
        configuration.pingInterval = 5
        configuration.deadPeerTimeout = 15
        return configuration
    }

    /// `https://<first LAN address>:port/`, or localhost when there is none.
    public static func httpsAddress(port: Int) -> String { "https://\(primaryAddress()):\(port)/" }

    /// `name.local` first, then LAN addresses, for the setup page's links.
    static func setupAddresses() -> [String] {
        let identity = LocalIdentity.current()
        let names = identity.dnsNames.filter { $0.hasSuffix(".local") }
        return names + identity.ipAddresses.filter { !$0.hasPrefix("127.") && $0 != "::1" }
    }

    static func primaryAddress() -> String {
        let identity = LocalIdentity.current()
        let lan = identity.ipAddresses.first { !$0.hasPrefix("127.") && $0 != "::1" && !$0.contains(":") }
        return lan ?? "localhost"
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

/// Holds the setup routes, made once the port and CA are known; the transport thread reads them.
/// `@unchecked Sendable`: every access holds the lock.
final class SetupRoutesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: SetupRoutes?
    var value: SetupRoutes? {
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
