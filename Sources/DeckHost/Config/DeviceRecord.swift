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
    /// Whether this device may change the deck (add, change, move or clear keys). A key can run anything the
    /// user can, so this is as strong as a shell; on for a device paired at the computer (every device is: the
    /// PIN is shown there) until the user turns it off.
    public var editAllowed: Bool
    /// Whether this device may trade the clipboard with the computer while it views (DESIGN.md#clipboard);
    /// off until the user allows it.
    public var clipboardAllowed: Bool
    /// Whether a paste from this device also presses the paste chord in the focused window (on until the user
    /// turns it off: then a paste only sets the computer's clipboard).
    public var pasteChord: Bool
    /// Whether a paste from this device also sets the primary selection (X11's PRIMARY) and, while it views,
    /// the text selected on the computer is offered too (off until the user asks for it).
    public var primarySelection: Bool
    /// When the device last authenticated, if ever.
    public var lastSeen: Date?
    /// The protocol number the device announced last, for `touchdeck status`.
    public var lastProtocol: Int?
    /// The profile this device keeps as its own; nil: it follows the shared current profile (PROTOCOL §6
    /// "Profiles").
    public var profile: String?

    public init(
        id: String, name: String, secret: Data, screenAllowed: Bool = false, editAllowed: Bool = true,
        lastSeen: Date? = nil, lastProtocol: Int? = nil, clipboardAllowed: Bool = false,
        pasteChord: Bool = true, primarySelection: Bool = false
    ) {
        self.id = id
        self.name = name
        self.secret = secret
        self.screenAllowed = screenAllowed
        self.editAllowed = editAllowed
        self.clipboardAllowed = clipboardAllowed
        self.pasteChord = pasteChord
        self.primarySelection = primarySelection
        self.lastSeen = lastSeen
        self.lastProtocol = lastProtocol
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, secret, screenAllowed, editAllowed, clipboardAllowed, pasteChord, lastSeen, lastProtocol
        case profile, primarySelection
    }

    /// Files written before screen viewing existed have no `screenAllowed`; it reads as off (seed). Files
    /// written before the edit permission existed have no `editAllowed`: those devices could edit, and still may.
    /// A missing `clipboardAllowed` or `primarySelection` reads as off, a missing `pasteChord` as on.
    public init(from decoder: Decoder) throws {
        let record = try decoder.container(keyedBy: CodingKeys.self)
        id = try record.decode(String.self, forKey: .id)
        name = try record.decode(String.self, forKey: .name)
        secret = try record.decode(Data.self, forKey: .secret)
        screenAllowed = try record.decodeIfPresent(Bool.self, forKey: .screenAllowed) == true
        editAllowed = try record.decodeIfPresent(Bool.self, forKey: .editAllowed) ?? true
        clipboardAllowed = try record.decodeIfPresent(Bool.self, forKey: .clipboardAllowed) == true
        pasteChord = try record.decodeIfPresent(Bool.self, forKey: .pasteChord) ?? true
        primarySelection = try record.decodeIfPresent(Bool.self, forKey: .primarySelection) == true
        lastSeen = try record.decodeIfPresent(Date.self, forKey: .lastSeen)
        lastProtocol = try record.decodeIfPresent(Int.self, forKey: .lastProtocol)
        profile = try record.decodeIfPresent(String.self, forKey: .profile)
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
