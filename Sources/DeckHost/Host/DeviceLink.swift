import DeckKit
import DeckTransport
import Foundation

/// What the host needs from the transport: send text to a connection, close one with a close code, and say
/// when one has authorized (it then leaves the transport's front-door limits). The live value is
/// `WebSocketServer`; tests record what was sent.
public protocol DeviceLink: Sendable {
    func send(text: String, to id: ConnectionID)
    /// Queues a text message; `onSent` runs once it has been written to the socket (a fetched chunk is in
    /// flight until then).
    func send(text: String, to id: ConnectionID, onSent: (@Sendable () -> Void)?)
    /// Queues a binary message (already sealed); `onSent` runs once it has been written to the socket.
    func send(binary: Data, to id: ConnectionID, onSent: (@Sendable () -> Void)?)
    /// The same for a message in its `WireBuffer`, which the live transport writes without copying.
    func send(binary: consuming WireBuffer, to id: ConnectionID, onSent: (@Sendable () -> Void)?)
    func close(_ id: ConnectionID, code: UInt16)
    func authorize(_ id: ConnectionID)
}

extension DeviceLink {
    /// Links that record what was sent (tests) take the bytes as `Data`.
    public func send(binary: consuming WireBuffer, to id: ConnectionID, onSent: (@Sendable () -> Void)?) {
        send(binary: binary.data, to: id, onSent: onSent)
    }
}

extension WebSocketServer: DeviceLink {}

/// One thing the transport reported, in the order it happened.
public enum TransportEvent: Sendable {
    case opened(ConnectionID, ConnectionInfo)
    case text(String, ConnectionID)
    case binary(ConnectionID)
    case closed(ConnectionID)
}

/// Carries transport events from lws's service thread to the host's actor without reordering them:
/// handler closures only yield into the stream (they must return quickly), `DeckServer.run` consumes it.
public struct TransportEvents: Sendable {
    public let stream: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
    }

    /// A transport handler that feeds this stream; `http` answers plain and TLS GETs first.
    public func handler(http: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil }) -> WebSocketHandler {
        let continuation = self.continuation
        return WebSocketHandler(
            opened: { continuation.yield(.opened($0, $1)) },
            text: { continuation.yield(.text($0, $1)) },
            binary: { _, id in continuation.yield(.binary(id)) },
            closed: { continuation.yield(.closed($0)) },
            http: http)
    }

    /// Ends the stream (after `stop`).
    public func finish() { continuation.finish() }
}
