import DeckKit
import Foundation

/// One connection's stages (PROTOCOL §2): hello → pairing or authentication → authorized.
///
/// A value with mutating methods that return what to do; the host's actor does it. Crypto and the
/// paired-device list come in through `SessionServices`, the time through `now`.
public struct SessionMachine<Services: SessionServices> {
    /// Where the connection stands.
    public enum Stage {
        /// Connected; the device may say hello or start a handshake.
        case open
        /// Waiting for `pairConfirm`.
        case pairing(Services.PairingState, name: String)
        /// Waiting for `authFinish`.
        case authenticating(Services.AuthState, deviceId: String)
        /// Every message is sealed from here on.
        case authorized(Services.Channel, deviceId: String)
        /// Closed by the host; further input is ignored.
        case closed
    }

    public internal(set) var stage: Stage = .open
    /// The name from `hello` or `pairStart`.
    public internal(set) var deviceName = ""
    /// The protocol number from `hello` (absent → 1).
    public internal(set) var deviceProtocol = ProtocolVersion.legacy
    /// The peer's address, for log lines about this connection (wrong and dead PINs).
    public let peer: String
    private var flood: FloodGuard

    /// A session for a connection from `peer` (its numeric address).
    public init(peer: String = "", flood: FloodGuard = FloodGuard()) {
        self.peer = peer
        self.flood = flood
    }

    /// The paired device this session is authorized as, if it is.
    public var authorizedDevice: String? {
        if case .authorized(_, let id) = stage { return id }
        return nil
    }

    /// A text message arrived.
    public mutating func receive(text: String, now: Date, services: Services) -> [SessionAction] {
        if case .closed = stage { return [] }
        if case .authorized = stage { return receiveSealed(text, services: services) }
        guard flood.admit(now: now) else {
            return refuseAndClose(CloseCode.policyViolation, "too many messages before authorization")
        }
        let message: DeviceMessage
        do {
            message = try DeviceMessage.decode(text)
        } catch {
            return [.send(.error(.init(for: error)))]
        }
        return handshake(message, services: services)
    }

    /// A binary message arrived: devices never send binary (PROTOCOL §0).
    public mutating func receiveBinary() -> [SessionAction] {
        if case .closed = stage { return [] }
        return refuseAndClose(CloseCode.unsupportedData, "binary messages from a device are not allowed")
    }

    /// The host ends the session (revoked device, shutdown).
    public mutating func end(reason: String) -> [SessionAction] {
        if case .closed = stage { return [] }
        return close(CloseCode.goingAway, reason)
    }

    /// Seals a host message for this session; nil unless authorized or if sealing fails.
    public mutating func seal(_ message: HostMessage) -> String? {
        envelope(message).map { String(decoding: $0.encode(), as: UTF8.self) }
    }

    /// The `secure` message carrying `message`; nil unless authorized or if sealing fails.
    private mutating func envelope(_ message: HostMessage) -> HostMessage? {
        guard case .authorized(var channel, let id) = stage else { return nil }
        defer { stage = .authorized(channel, deviceId: id) }
        return (try? channel.seal(message.encode())).map(HostMessage.secure)
    }

    /// Seals a binary payload for this session; nil unless authorized.
    public mutating func sealBinary(_ payload: Data) -> Data? {
        guard case .authorized(var channel, let id) = stage else { return nil }
        defer { stage = .authorized(channel, deviceId: id) }
        return try? channel.sealBinary(payload)
    }

    /// What seals this session's video and sound off the actor; nil unless authorized.
    public var mediaSealer: (any MediaSealing)? {
        guard case .authorized(let channel, _) = stage else { return nil }
        return channel.mediaSealer
    }

    /// Says why in an `error` (sealed when authorized) before closing, so the device can tell its user.
    /// The error is sealed here, while the session is still authorized: after `close` it could not be.
    private mutating func refuseAndClose(_ code: UInt16, _ reason: String) -> [SessionAction] {
        let error = HostMessage.error(.init(code: .badMessage, message: reason))
        let tell = authorizedDevice == nil ? error : envelope(error)
        return (tell.map { [SessionAction.send($0)] } ?? []) + close(code, reason)
    }

    private mutating func close(_ code: UInt16, _ reason: String) -> [SessionAction] {
        stage = .closed
        return [.close(code: code, reason: reason)]
    }
}
