import Foundation

/// One paired device as kept in the secrets file (`devices.json`).
public struct DeviceRecord: Codable, Equatable, Sendable {
    /// 16 random bytes as lowercase hex, given at pairing.
    public var id: String
    /// The name the device gave, at most 64 characters.
    public var name: String
    /// The 32-byte secret both sides derive session keys from.
    public var secret: Data
    /// Whether this device may view the screen; off until the user allows it, and after re-pairing.
    public var screenAllowed: Bool
    /// When the device last authenticated, if ever.
    public var lastSeen: Date?
    /// The protocol number the device announced last, for `touchdeck status`.
    public var lastProtocol: Int?

    public init(
        id: String, name: String, secret: Data, screenAllowed: Bool = false, lastSeen: Date? = nil,
        lastProtocol: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.secret = secret
        self.screenAllowed = screenAllowed
        self.lastSeen = lastSeen
        self.lastProtocol = lastProtocol
    }

    private enum CodingKeys: String, CodingKey { case id, name, secret, screenAllowed, lastSeen, lastProtocol }

    /// Files written before screen viewing existed have no `screenAllowed`; it reads as off (seed).
    public init(from decoder: Decoder) throws {
        let record = try decoder.container(keyedBy: CodingKeys.self)
        id = try record.decode(String.self, forKey: .id)
        name = try record.decode(String.self, forKey: .name)
        secret = try record.decode(Data.self, forKey: .secret)
        screenAllowed = try record.decodeIfPresent(Bool.self, forKey: .screenAllowed) == true
        lastSeen = try record.decodeIfPresent(Date.self, forKey: .lastSeen)
        lastProtocol = try record.decodeIfPresent(Int.self, forKey: .lastProtocol)
    }
}

/// The secrets file's top level; a wrapper object so that fields can be added later.
struct DeviceFile: Codable, Equatable {
    var devices: [DeviceRecord]

    init(devices: [DeviceRecord]) { self.devices = devices }

    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        devices = try fields.decodeIfPresent([DeviceRecord].self, forKey: .devices) ?? []
    }
}
