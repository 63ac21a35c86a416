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
        /// Start recording monitor `displayId` (nil: the leftmost) at `fps`, or stop the recording that runs
        /// (SPEC §11); the key shows the recording's state on every device.
        case record(displayId: Int?, fps: Int)

        /// The wire name of the kind: `app`, `command`, `terminal` or `record`.
        public var name: String {
            switch self {
            case .app: "app"
            case .command: "command"
            case .terminal: "terminal"
            case .record: "record"
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
        case label, kind, appId, command, directory, displayId, fps
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        label = try fields.decode(String.self, forKey: .label)
        switch try fields.decode(String.self, forKey: .kind) {
        case "app": kind = .app(appId: try fields.decode(String.self, forKey: .appId))
        case "command": kind = .command(try fields.decode(String.self, forKey: .command))
        case "terminal": kind = .terminal(directory: try fields.decodeIfPresent(String.self, forKey: .directory) ?? "")
        case "record":
            // 30 or 60 as for recordStart: another number goes to the nearer, absent is 30.
            let fps = StreamRate.normalize(fps: try fields.decodeIfPresent(Int.self, forKey: .fps) ?? 30)
            kind = .record(displayId: try fields.decodeIfPresent(Int.self, forKey: .displayId), fps: fps)
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: fields, debugDescription: "unknown button kind")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(label, forKey: .label)
        try fields.encode(kind.name, forKey: .kind)
        switch kind {
        case .app(let appId): try fields.encode(appId, forKey: .appId)
        case .command(let command): try fields.encode(command, forKey: .command)
        case .terminal(let directory): try fields.encode(directory, forKey: .directory)
        case .record(let displayId, let fps):
            try fields.encodeIfPresent(displayId, forKey: .displayId)
            try fields.encode(fps, forKey: .fps)
        }
    }
}
