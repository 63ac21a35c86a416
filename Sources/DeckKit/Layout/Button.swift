/// One keycap on the deck: a label and what pressing it does.
///
/// Wire form (PROTOCOL §6), fields flat beside `kind`:
/// `{"command":"blogrun","kind":"command","label":"Blog"}`.
public struct Button: Codable, Hashable, Sendable {
    /// What a press runs on the host.
    public enum Kind: Hashable, Sendable {
        /// Launch an XDG desktop entry, e.g. `org.gnome.Nautilus.desktop`.
        case app(appId: String)
        /// Run a line in the user's interactive shell (aliases work).
        case command(String)
        /// Open a new terminal window in `directory` (`""` = home).
        case terminal(directory: String)

        /// The wire name of the kind: `app`, `command` or `terminal`.
        public var name: String {
            switch self {
            case .app: "app"
            case .command: "command"
            case .terminal: "terminal"
            }
        }
    }

    /// Text shown on the keycap.
    public var label: String
    /// What a press runs.
    public var kind: Kind

    /// A button with a label and an action.
    public init(label: String, kind: Kind) {
        self.label = label
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey {
        case label, kind, appId, command, directory
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decode(String.self, forKey: .label)
        switch try c.decode(String.self, forKey: .kind) {
        case "app": kind = .app(appId: try c.decode(String.self, forKey: .appId))
        case "command": kind = .command(try c.decode(String.self, forKey: .command))
        case "terminal": kind = .terminal(directory: try c.decodeIfPresent(String.self, forKey: .directory) ?? "")
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown button kind")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label)
        try c.encode(kind.name, forKey: .kind)
        switch kind {
        case .app(let appId): try c.encode(appId, forKey: .appId)
        case .command(let command): try c.encode(command, forKey: .command)
        case .terminal(let directory): try c.encode(directory, forKey: .directory)
        }
    }
}
