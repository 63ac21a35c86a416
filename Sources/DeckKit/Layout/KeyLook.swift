/// How a key looks beyond its label and kind (PROTOCOL §6 "Looks"): a colour from the palette, an icon, the label
/// hidden. Every field is optional, so a key without them looks as it always did (the kind's colour, no icon).
///
/// Wire form, flat beside the button's other fields: `{"color":"teal","icon":{"emoji":"🎵"},"hideLabel":true}`.
/// Decoding takes any colour name, so a layout saved by a later host with more colours still loads; the palette
/// is checked when a device sets a key (`check`), so a device's typo is refused with the names it may use.
public struct KeyLook: Codable, Hashable, Sendable {
    /// What a key shows above its label.
    public enum Icon: Hashable, Sendable {
        /// One character (an emoji or another symbol), drawn by the device's own font.
        case emoji(String)
        /// The icon of an installed app, by desktop-file id; the device takes the picture from the `apps`
        /// catalogue it already asks for, so no image travels in the layout.
        case app(appId: String)
        /// A picture stored in the host's config dir (`icons/NAME`, a PNG), by file name: `isImageName`. The
        /// layout carries only the name; a profile file carries the picture too (`ProfileFile`).
        case image(String)
    }

    /// A stored icon's file name: 8 to 64 lowercase hex digits (its digest) and `.png`, so a name can never reach
    /// outside the icons folder.
    public static func isImageName(_ name: String) -> Bool {
        guard name.hasSuffix(".png") else { return false }
        let stem = name.utf8.dropLast(4)
        return (8...64).contains(stem.count) && stem.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The stored icon this look shows, if it shows one.
    public var imageName: String? {
        if case .image(let name) = icon { return name }
        return nil
    }

    /// The palette's colour names, in the editor's order. Absent means the kind's own colour.
    public static let palette = [
        "red", "orange", "yellow", "lime", "green", "teal", "cyan", "blue", "indigo", "purple", "pink", "grey",
    ]
    /// The most UTF-8 bytes of an emoji icon: one character, but a family or a flag with skin tones is long.
    public static let maxEmojiBytes = 64

    /// A palette name, or nil for the kind's colour.
    public var color: String?
    /// The icon, or nil for none (an app key still shows its app's icon).
    public var icon: Icon?
    /// Whether the keycap leaves the label out when it has an icon (screen readers still read it).
    public var hideLabel: Bool

    /// The kind's colour, no icon, the label shown.
    public static let plain = KeyLook()

    public init(color: String? = nil, icon: Icon? = nil, hideLabel: Bool = false) {
        self.color = color
        self.icon = icon
        self.hideLabel = hideLabel
    }

    /// Refuses a colour outside the palette and an icon that is not one character or names no app.
    public func check() throws {
        if let color, !Self.palette.contains(color) { throw LayoutError.badColor(color) }
        switch icon {
        case .emoji(let emoji): try Self.check(emoji: emoji)
        case .app(let appId):
            guard !appId.isEmpty else { throw LayoutError.badIcon("an app icon needs an app id") }
            guard appId.utf8.count <= DeckLayout.maxField else {
                throw LayoutError.fieldTooLong(field: "icon app id", limit: DeckLayout.maxField)
            }
        case .image(let name):
            guard Self.isImageName(name) else { throw LayoutError.badIcon("a stored icon is named by its digest") }
        case nil: break
        }
    }

    /// One character, visible, and not a whole paragraph of bytes: a key shows one symbol, not a text.
    private static func check(emoji: String) throws {
        guard emoji.count == 1 else {
            throw LayoutError.badIcon("an emoji icon is one character, not \(emoji.count)")
        }
        guard emoji.utf8.count <= maxEmojiBytes else {
            throw LayoutError.badIcon("an emoji icon is at most \(maxEmojiBytes) bytes")
        }
        guard let first = emoji.unicodeScalars.first,
            !first.properties.isWhitespace, first.properties.generalCategory != .control,
            first.properties.generalCategory != .format
        else { throw LayoutError.badIcon("an emoji icon must be a visible character") }
    }

    private enum CodingKeys: String, CodingKey { case color, icon, hideLabel }
    private enum IconKeys: String, CodingKey { case emoji, app, image }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        color = try fields.decodeIfPresent(String.self, forKey: .color)
        hideLabel = try fields.decodeIfPresent(Bool.self, forKey: .hideLabel) ?? false
        guard fields.contains(.icon), try !fields.decodeNil(forKey: .icon) else {
            icon = nil
            return
        }
        let parts = try fields.nestedContainer(keyedBy: IconKeys.self, forKey: .icon)
        if let emoji = try parts.decodeIfPresent(String.self, forKey: .emoji) {
            icon = .emoji(emoji)
        } else if let appId = try parts.decodeIfPresent(String.self, forKey: .app) {
            icon = .app(appId: appId)
        } else if let name = try parts.decodeIfPresent(String.self, forKey: .image) {
            icon = .image(name)
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .icon, in: fields, debugDescription: #"an icon is {"emoji":…} or {"app":…}"#)
        }
    }

    /// Only what differs from `plain` is written, so a key without looks keeps its old wire form.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encodeIfPresent(color, forKey: .color)
        if hideLabel { try fields.encode(true, forKey: .hideLabel) }
        guard let icon else { return }
        var parts = fields.nestedContainer(keyedBy: IconKeys.self, forKey: .icon)
        switch icon {
        case .emoji(let emoji): try parts.encode(emoji, forKey: .emoji)
        case .app(let appId): try parts.encode(appId, forKey: .app)
        case .image(let name): try parts.encode(name, forKey: .image)
        }
    }
}
