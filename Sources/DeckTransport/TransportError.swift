/// Failures of the WebSocket/TLS transport.
public enum TransportError: Error, Equatable, Sendable {
    /// The listening socket could not be created (port taken, no permission).
    case listen(String)
    /// Certificate or key material could not be created or read.
    case certificate(String)
}
