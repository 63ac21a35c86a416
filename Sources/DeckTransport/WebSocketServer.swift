import CLibWebSockets
import DeckKit
import Foundation

/// HTTPS, WSS, plain HTTP and plain WS on one port, served by libwebsockets on one dedicated thread.
///
/// lws is single-threaded: every lws call happens on the service thread. `send`/`close` may be called from
/// any thread; they queue a command and wake the loop with `lws_cancel_service`. Handler closures run on the
/// service thread.
///
/// `@unchecked Sendable`: the only stored mutable state (`running`) is guarded by `lock`.
public final class WebSocketServer: @unchecked Sendable {
    private let configuration: ServerConfiguration
    private let handler: WebSocketHandler
    private let lock = NSLock()
    private var running: ServiceLoop?

    /// A server that does nothing until `start()`.
    public init(configuration: ServerConfiguration, handler: WebSocketHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit { stop() }

    /// Binds the port and starts the service thread; returns the port actually bound (useful with port 0).
    /// Throws `TransportError.listen` when the port is taken or the TLS files cannot be used.
    @discardableResult
    public func start() throws -> Int {
        try lock.withLock {
            if let running { return running.port }
            let loop = try ServiceLoop(configuration: configuration, handler: handler)
            loop.launch()
            running = loop
            return loop.port
        }
    }

    /// Closes every connection (each gets `closed`), stops the thread and waits for it, unless called from
    /// a handler closure, in which case the loop ends right after that closure returns. Safe to call twice.
    public func stop() {
        let loop = lock.withLock {
            defer { running = nil }
            return running
        }
        loop?.stop()
    }

    /// Queues a text message; dropped if the connection is gone or the server stopped.
    public func send(text: String, to id: ConnectionID) {
        send(text: text, to: id, onSent: nil)
    }

    /// Queues a text message. `onSent`, as for binary messages, runs on the service thread once lws has
    /// handed the whole message to the socket; it never runs if the connection closes first.
    public func send(text: String, to id: ConnectionID, onSent: (@Sendable () -> Void)?) {
        post(.send(id, OutgoingMessage(data: Data(text.utf8), isBinary: false, onSent: onSent)))
    }

    /// Queues a binary message. `onSent` runs on the service thread once lws has handed the whole message to
    /// the socket; it never runs if the connection closes first or the server stops.
    public func send(binary: Data, to id: ConnectionID, onSent: (@Sendable () -> Void)? = nil) {
        post(.send(id, OutgoingMessage(data: binary, isBinary: true, onSent: onSent)))
    }

    /// Queues a binary message already in a `WireBuffer` (sealed media): written without a copy when it has
    /// `LWS_PRE` bytes of room in front (`WireBuffer.reservedFront` does) and the caller gave its only copy.
    /// A buffer still shared is copied here, so that the service thread alone uses what it writes.
    public func send(binary: consuming WireBuffer, to id: ConnectionID, onSent: (@Sendable () -> Void)? = nil) {
        binary.makeUnique()
        post(.send(id, OutgoingMessage(bytes: binary, isBinary: true, onSent: onSent)))
    }

    /// Closes a connection with a WebSocket close code (RFC 6455 §7.4: 1000 normal, 1003 unsupported data,
    /// 1008 policy violation, …) after the messages queued before it went out; `closed` follows.
    public func close(_ id: ConnectionID, code: UInt16 = 1000) {
        post(.close(id, code: code))
    }

    /// The connection has authorized: it stops counting against the front door (`FrontDoorLimits`), has no
    /// deadline any more, and may send messages up to `maxMessageSize`. Call it before sending the message that
    /// tells the peer it is authorized, so that its first large message already meets the larger limit.
    public func authorize(_ id: ConnectionID) {
        post(.authorize(id))
    }

    private func post(_ command: ServiceCommand) {
        lock.withLock { running }?.inbox.post(command)
    }
}

/// One run of the service thread: the lws context, the core that answers its callbacks, and the thread.
///
/// `@unchecked Sendable`: `context` and `core` are used by the thread that built them only until
/// `launch()`, then only by the service thread; `inbox` is locked; `finished` is a semaphore.
final class ServiceLoop: @unchecked Sendable {
    let inbox = CommandInbox()
    let port: Int
    private var context: LWSContext?
    private let core: Unmanaged<ServiceCore>
    private let finished = DispatchSemaphore(value: 0)
    /// Weak: the running thread keeps itself alive, and a strong reference here would be a cycle with its block.
    private weak var thread: Thread?

    init(configuration: ServerConfiguration, handler: WebSocketHandler) throws {
        let core = ServiceCore(configuration: configuration, handler: handler, inbox: inbox)
        // +1 handed to lws as the context's user pointer; released in `run()` after the context is destroyed.
        let retained = Unmanaged.passRetained(core)
        do {
            let context = try LWSContext(configuration: configuration, user: retained.toOpaque())
            self.context = context
            port = context.listenPort
            inbox.attach(context.context)
        } catch {
            retained.release()
            throw error
        }
        self.core = retained
    }

    func launch() {
        let thread = Thread { [self] in run() }
        thread.name = "touchdeck.lws"
        self.thread = thread
        thread.start()
    }

    func stop() {
        guard inbox.requestStop() else { return }
        if Thread.current != thread { finished.wait() }
    }

    private func run() {
        while !inbox.isStopping, let context, lws_service(context.context, 0) >= 0 {}
        inbox.detach()
        // Destroying the context closes every socket; lws reports each open WebSocket as closed meanwhile.
        context = nil
        core.takeUnretainedValue().closeRemaining()
        core.release()
        finished.signal()
    }
}
