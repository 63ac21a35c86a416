import Foundation

/// A device the host paired: its id, the name it gave, and its 32-byte secret.
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

/// What the host's device store does for the handshake. The config store implements it with persistence;
/// `InMemoryDeviceRegistry` serves tests and `touchdeck-peer`.
public protocol DeviceRegistry: AnyObject, Sendable {
    /// The secret of a paired device, or nil when the id is unknown or revoked.
    func secret(forDevice deviceId: String) -> Data?
    /// Remembers a newly paired device.
    func add(_ device: PairedDevice)
    /// Forgets a device and its secret; returns false when it was not known.
    @discardableResult func revoke(deviceId: String) -> Bool
}

/// A registry that lives only in memory.
///
/// `@unchecked Sendable`: every access to `devices` holds `lock`.
public final class InMemoryDeviceRegistry: DeviceRegistry, @unchecked Sendable {
    private let lock = NSLock()
    private var devices: [String: PairedDevice] = [:]

    public init(_ devices: [PairedDevice] = []) {
        for device in devices { self.devices[device.deviceId] = device }
    }

    public func secret(forDevice deviceId: String) -> Data? {
        lock.withLock { devices[deviceId]?.secret }
    }

    public func add(_ device: PairedDevice) {
        lock.withLock { devices[device.deviceId] = device }
    }

    @discardableResult public func revoke(deviceId: String) -> Bool {
        lock.withLock { devices.removeValue(forKey: deviceId) != nil }
    }

    /// Every paired device, for listings.
    public var all: [PairedDevice] {
        lock.withLock { Array(devices.values) }
    }
}
