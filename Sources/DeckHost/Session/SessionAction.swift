import DeckKit

/// What the I/O shell must do after the session machine took an input.
public enum SessionAction: Equatable, Sendable {
    /// Send a plain text message (before authorization).
    case send(HostMessage)
    /// Seal and send a text message (after authorization).
    case sendSealed(HostMessage)
    /// Close the connection with a WebSocket close code and a short reason.
    case close(code: UInt16, reason: String)
    /// A device finished pairing: store it.
    case paired(DeviceRecord)
    /// The session is authorized: register it for broadcasts, send the layout, note when the device was seen.
    case authorized(deviceId: String, protocolVersion: Int)
    /// An opened request from an authorized device, for the host to carry out.
    case request(DeviceMessage)
}

/// WebSocket close codes the host uses (RFC 6455 §7.4.1).
public enum CloseCode {
    /// Binary data from a device.
    public static let unsupportedData: UInt16 = 1003
    /// Floods and failed proofs.
    public static let policyViolation: UInt16 = 1008
    /// A message over 16 MiB.
    public static let messageTooBig: UInt16 = 1009
    /// The device was revoked or the host is stopping.
    public static let goingAway: UInt16 = 1001
    /// Too many connections are waiting to authorize.
    public static let tryAgainLater: UInt16 = 1013
}
