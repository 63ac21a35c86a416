import Foundation

/// Identifies one WebSocket connection; never reused within the process.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    /// The counter value, starting at 1.
    public let rawValue: UInt64

    /// Wraps a counter value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public var description: String { "c\(rawValue)" }
}

/// What the server knows about a peer when its WebSocket opens.
public struct ConnectionInfo: Equatable, Sendable {
    /// Whether the connection came in over TLS (`wss://`) rather than plain `ws://`.
    public var isTLS: Bool
    /// The peer's numeric address, e.g. `192.168.1.30` or `::1`.
    public var remoteAddress: String

    /// Info as given.
    public init(isTLS: Bool, remoteAddress: String) {
        self.isTLS = isTLS
        self.remoteAddress = remoteAddress
    }
}

/// An HTTP GET or HEAD as the host's responder sees it.
public struct HTTPRequest: Equatable, Sendable {
    /// The decoded path without the query, e.g. `/ca.crt`.
    public var path: String
    /// Whether the request came in over TLS.
    public var isTLS: Bool
    /// Whether the peer is this computer (127.0.0.0/8 or ::1).
    public var isLoopback: Bool

    /// A request as given.
    public init(path: String, isTLS: Bool, isLoopback: Bool) {
        self.path = path
        self.isTLS = isTLS
        self.isLoopback = isLoopback
    }
}

/// A complete HTTP response held in memory.
public struct HTTPResponse: Equatable, Sendable {
    /// Status code, e.g. 200.
    public var status: Int
    /// The Content-Type header value.
    public var contentType: String
    /// The body.
    public var body: Data
    /// Further headers, e.g. `Content-Disposition` for a download.
    public var headers: [String: String]

    /// A response as given.
    public init(status: Int = 200, contentType: String, body: Data, headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A plain-text 404.
    public static let notFound = HTTPResponse(
        status: 404, contentType: "text/plain; charset=utf-8", body: Data("Not found\n".utf8))

    /// A plain-text 405 for any method but GET and HEAD.
    public static let methodNotAllowed = HTTPResponse(
        status: 405, contentType: "text/plain; charset=utf-8", body: Data("Method not allowed\n".utf8),
        headers: ["Allow": "GET, HEAD"])

    /// Sent with every response (DESIGN.md#transport). The app needs `data:` images (app icons arrive as data URLs);
    /// its WebSocket is same-origin, which `'self'` covers for `wss:` and `ws:`.
    public static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]
}

/// What the server tells its owner. Every closure runs on the server's service thread and must return
/// quickly: while it runs no socket is served. Calling the server's `send`/`close` from inside is fine.
public struct WebSocketHandler: Sendable {
    /// A WebSocket on `/ws` completed its handshake.
    public var opened: @Sendable (ConnectionID, ConnectionInfo) -> Void
    /// A whole text message arrived (fragments already joined, UTF-8 already checked).
    public var text: @Sendable (String, ConnectionID) -> Void
    /// A whole binary message arrived.
    public var binary: @Sendable (Data, ConnectionID) -> Void
    /// The connection is gone (peer closed, dropped as dead, too-large message, `close`, or `stop`).
    public var closed: @Sendable (ConnectionID) -> Void
    /// Consulted first for every plain or TLS HTTP GET; `nil` falls through to the web root (over TLS, or
    /// over plain HTTP from loopback) or 404.
    public var http: @Sendable (HTTPRequest) -> HTTPResponse?

    /// A handler from closures; absent ones do nothing.
    public init(
        opened: @escaping @Sendable (ConnectionID, ConnectionInfo) -> Void = { _, _ in },
        text: @escaping @Sendable (String, ConnectionID) -> Void = { _, _ in },
        binary: @escaping @Sendable (Data, ConnectionID) -> Void = { _, _ in },
        closed: @escaping @Sendable (ConnectionID) -> Void = { _ in },
        http: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil }
    ) {
        self.opened = opened
        self.text = text
        self.binary = binary
        self.closed = closed
        self.http = http
    }
}

/// How a `WebSocketServer` listens and what it serves.
public struct ServerConfiguration: Sendable {
    /// TCP port for TLS and plain alike; 0 lets the system pick (read it from `start()`).
    public var port: Int = 52801
    /// Certificate and key for TLS; `CertificateStore.prepare` makes them.
    public var certificate: CertificateFiles
    /// Folder served as static files (the project's `Web/`); `nil` serves none.
    public var webRoot: URL?
    /// The file under `webRoot` answered for `GET /`.
    public var indexPath: String = "app/index.html"
    /// The folders of `webRoot` that are served: the app and the modules it imports (not `test`, `bench`).
    public var webRootFolders: [String] = ["app", "core"]
    /// Whether plain HTTP from this computer (loopback) may also get the web root; other plain peers never do.
    public var servesWebRootToLoopbackHTTP: Bool = true
    /// The path on which WebSocket upgrades are accepted.
    public var webSocketPath: String = "/ws"
    /// Largest WebSocket message accepted; a larger one closes that connection with 1009.
    public var maxMessageSize: Int = 16 * 1024 * 1024
    /// What a connection gets until its owner calls `WebSocketServer.authorize`; nil trusts every connection
    /// from the start (for a server whose owner has no notion of authorization).
    public var frontDoor: FrontDoorLimits? = FrontDoorLimits()
    /// The paired devices' ids, which the front door lets wait apart from strangers; shared with the owner,
    /// who replaces its contents whenever a device pairs or is revoked.
    public var knownDevices = KnownDevices()
    /// Most bytes of messages a connection may have waiting to be written (its peer is not reading them);
    /// one more closes it with 1008 "too much unread". Room for the largest message (16 MiB) and then some;
    /// small enough that a stalled peer, with the copies sealing makes on the way, costs well under 64 MiB.
    /// Video and audio are held back earlier by their own in-flight limits, so this is met only by a peer
    /// that keeps asking and does not read.
    public var maxQueuedBytes: Int = 24 * 1024 * 1024
    /// Seconds without traffic before the server pings.
    public var pingInterval: UInt16 = 5
    /// Seconds without a pong before the peer is dropped; also how long a connection with messages waiting
    /// may go without lws taking a frame of them, pongs or not.
    public var deadPeerTimeout: UInt16 = 15

    /// A configuration with defaults for everything but the TLS material.
    public init(certificate: CertificateFiles, port: Int = 52801, webRoot: URL? = nil) {
        self.certificate = certificate
        self.port = port
        self.webRoot = webRoot
    }
}
