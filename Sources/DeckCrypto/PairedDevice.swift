import Foundation

/// A device the host paired: its id, the name it gave, and its 32-byte secret (DeckHost keeps it as a
/// `DeviceRecord` in its device list).
public struct PairedDevice: Equatable, Sendable {
    /// 16 random bytes as lowercase hex.
    public var deviceId: String
    /// The name from `pairStart`, at most 64 characters.
    public var name: String
    /// The secret the device authenticates with (§4). Never logged.
    public var secret: Data

    public init(deviceId: String, name: String, secret: Data) {
        self.deviceId = deviceId
        self.name = name
        self.secret = secret
    }
}
