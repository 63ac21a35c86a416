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
        /// (DESIGN.md#recording); the key shows the recording's state on every device.
        case record(displayId: Int?, fps: Int)
        /// Press a key with modifiers held around it (Ctrl+Shift+T, a media key), by keysym whatever the layout.
        /// With `hold` the chord stays down while the finger is on the key (push-to-talk; `pressDown`/`pressUp`).
        case hotkey(KeyChord, hold: Bool = false)
        /// Type a snippet through the typing path, then Return when `enter`.
        case text(String, enter: Bool)
        /// Open an `http`/`https`/`mailto` URL, or a file or folder (an absolute path or `~/…`), with the
        /// desktop's default handler.
        case open(String)
        /// Play/pause, next, previous or stop on the media player that changed state last (MPRIS).
        case media(MediaAction)
        /// Mutes the default microphone (the sound server's default source), or unmutes it; the key shows whether it
        /// is muted, wherever that changed, as a live look (PROTOCOL §6 "Live looks", DeckServer+MicKeys.swift).
        case micMute
        /// A tile over 2 slots that shows what the media player plays (title, artist, album art, position); a press
        /// plays or pauses it, as a `media` play/pause key (PROTOCOL §6 "Tiles and sliders").
        case nowPlaying
        /// A control over 2 to 4 slots that sets and shows a level: the speakers, the microphone, one app's own
        /// volume or a script's value (SliderBinding.swift); it moves by `setSlider`, never by `press`.
        case slider(SliderBinding)
        /// Up to 16 steps run in order, each a key of another kind or a delay (CompoundKeys.swift).
        case multi([MultiStep])
        /// One of two actions by the state the host keeps (CompoundKeys.swift).
        indirect case toggle(Toggle)
        /// A sub-deck with pages of its own; the device opens it, and draws a back key in slot 0 of its first page
        /// (kept empty here). Folders nest up to `DeckLayout.maxFolderDepth`.
        case folder(pages: [[Button?]])
        /// Turns the pages of the deck or folder it sits in, on the device that pressed it.
        case page(PageTurn)
        /// Shows the profile (a named deck of its own) called this on the device that pressed it, or on every
        /// device that follows the shared profile when that one does (PROTOCOL §6 "Profiles"). The host runs it.
        case profile(String)

        /// The wire name of the kind.
        public var name: String {
            switch self {
            case .app: "app"
            case .command: "command"
            case .terminal: "terminal"
            case .record: "record"
            case .hotkey: "hotkey"
            case .text: "text"
            case .open: "open"
            case .media: "media"
            case .micMute: "micMute"
            case .nowPlaying: "nowPlaying"
            case .slider: "slider"
            case .multi: "multi"
            case .toggle: "toggle"
            case .folder: "folder"
            case .page: "page"
            case .profile: "profile"
            }
        }

        /// The kinds a device at protocol 2 or older knows; others reach it as plain keys (PROTOCOL §6).
        public var isProtocol2: Bool {
            switch self {
            case .app, .command, .terminal, .record: true
            case .hotkey, .text, .open, .media, .micMute, .nowPlaying, .slider, .multi, .toggle, .folder, .page,
                .profile:
                false
            }
        }
    }

    /// Text shown on the keycap.
    public var label: String
    /// What a press runs.
    public var kind: Kind
    /// Colour, icon and whether the label shows (PROTOCOL §6 "Looks"); its fields sit flat beside the kind's.
    public var look: KeyLook
    /// A command whose output the key shows live (issue 23, StateSource.swift); nil for none. Wire name
    /// `stateCommand` (`state` is a toggle's on/off).
    public var stateCommand: StateSource?
    /// The slots a wide control covers besides its own (Span.swift); nil for a key of one slot.
    public var span: Span?

    /// A button with a label, an action and (by default) the kind's own look; a now-playing tile spans 2 slots
    /// along its row unless `span` says otherwise.
    public init(
        label: String, kind: Kind, look: KeyLook = .plain, stateCommand: StateSource? = nil, span: Span? = nil
    ) {
        self.label = label
        self.kind = kind
        self.look = look
        self.stateCommand = stateCommand
        self.span = span ?? (kind.spans ? Span(slots: 2) : nil)
    }

    private enum CodingKeys: String, CodingKey {
        case label, kind, appId, command, directory, displayId, fps, key, modifiers, text, enter, target, action
        case pages, go, page, profile, hold, stateCommand, span, along, bind, app
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        label = try fields.decode(String.self, forKey: .label)
        look = try KeyLook(from: decoder)
        stateCommand = try fields.decodeIfPresent(StateSource.self, forKey: .stateCommand)
        if let slots = try fields.decodeIfPresent(Int.self, forKey: .span) {
            span = Span(slots: slots, along: try fields.decodeIfPresent(Span.Axis.self, forKey: .along) ?? .row)
        }
        switch try fields.decode(String.self, forKey: .kind) {
        case "app": kind = .app(appId: try fields.decode(String.self, forKey: .appId))
        case "command": kind = .command(try fields.decode(String.self, forKey: .command))
        case "terminal": kind = .terminal(directory: try fields.decodeIfPresent(String.self, forKey: .directory) ?? "")
        case "record":
            // 30 or 60 as for recordStart: another number goes to the nearer, absent is 30.
            let fps = StreamRate.normalize(fps: try fields.decodeIfPresent(Int.self, forKey: .fps) ?? 30)
            kind = .record(displayId: try fields.decodeIfPresent(Int.self, forKey: .displayId), fps: fps)
        case "hotkey":
            let name = try fields.decodeIfPresent(String.self, forKey: .key)
            let modifiers = try fields.decodeIfPresent([String].self, forKey: .modifiers) ?? []
            switch KeyChord.read(key: name, modifiers: modifiers) {
            case .success(let chord):
                kind = .hotkey(chord, hold: try fields.decodeIfPresent(Bool.self, forKey: .hold) ?? false)
            case .failure(let problem):
                // The problem rides along so a refused message says why (MessageCodec.describe).
                let field: CodingKeys = problem == .noKey || problem == .unknownKey ? .key : .modifiers
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: fields.codingPath + [field], debugDescription: problem.wireMessage,
                        underlyingError: problem))
            }
        case "text":
            kind = .text(
                try fields.decode(String.self, forKey: .text),
                enter: try fields.decodeIfPresent(Bool.self, forKey: .enter) ?? false)
        case "open": kind = .open(try fields.decode(String.self, forKey: .target))
        case "media": kind = .media(try fields.decode(MediaAction.self, forKey: .action))
        case "micMute": kind = .micMute
        case "nowPlaying": kind = .nowPlaying
        case "slider": kind = .slider(try Self.binding(fields))
        case "multi": kind = .multi(try MultiSteps(from: decoder).steps)
        case "toggle": kind = .toggle(try Toggle(from: decoder))
        // No pages: the layout gives the folder one empty page of its own size when it is set.
        case "folder": kind = .folder(pages: try fields.decodeIfPresent([[Button?]].self, forKey: .pages) ?? [])
        case "page": kind = .page(try Self.pageTurn(fields))
        case "profile": kind = .profile(try fields.decode(String.self, forKey: .profile))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: fields, debugDescription: "unknown button kind")
        }
        if span == nil, kind.spans { span = Span(slots: 2) }
    }

    private static func binding(_ fields: KeyedDecodingContainer<CodingKeys>) throws -> SliderBinding {
        switch try fields.decodeIfPresent(String.self, forKey: .bind) {
        case "speakers": return .speakers
        case "microphone": return .microphone
        case "app": return .app(try fields.decode(String.self, forKey: .app))
        case "script": return .script(try fields.decode(String.self, forKey: .command))
        default:
            // The reason rides along so the refusal says it (MessageCodec.describe).
            let reason = "a slider is bound to speakers, microphone, app (with app) or script (with command)"
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: fields.codingPath + [CodingKeys.bind], debugDescription: reason,
                    underlyingError: LayoutError.badSlider(reason)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(label, forKey: .label)
        try fields.encode(kind.name, forKey: .kind)
        try look.encode(to: encoder)
        try fields.encodeIfPresent(stateCommand, forKey: .stateCommand)
        if let span {
            try fields.encode(span.slots, forKey: .span)
            if span.along != .row { try fields.encode(span.along, forKey: .along) }
        }
        switch kind {
        case .app(let appId): try fields.encode(appId, forKey: .appId)
        case .command(let command): try fields.encode(command, forKey: .command)
        case .terminal(let directory): try fields.encode(directory, forKey: .directory)
        case .record(let displayId, let fps):
            try fields.encodeIfPresent(displayId, forKey: .displayId)
            try fields.encode(fps, forKey: .fps)
        case .hotkey(let chord, let hold):
            try fields.encode(chord.name, forKey: .key)
            if !chord.modifiers.isEmpty { try fields.encode(chord.modifiers, forKey: .modifiers) }
            if hold { try fields.encode(true, forKey: .hold) }
        case .text(let text, let enter):
            try fields.encode(text, forKey: .text)
            try fields.encode(enter, forKey: .enter)
        case .open(let target): try fields.encode(target, forKey: .target)
        case .media(let action): try fields.encode(action, forKey: .action)
        case .micMute, .nowPlaying: break
        case .slider(let binding):
            try fields.encode(binding.name, forKey: .bind)
            if case .app(let name) = binding { try fields.encode(name, forKey: .app) }
            if case .script(let line) = binding { try fields.encode(line, forKey: .command) }
        case .multi(let steps): try MultiSteps(steps: steps).encode(to: encoder)
        case .toggle(let toggle): try toggle.encode(to: encoder)
        case .folder(let pages): try fields.encode(pages, forKey: .pages)
        case .page(let turn):
            try fields.encode(turn.go, forKey: .go)
            if case .page(let number) = turn { try fields.encode(number, forKey: .page) }
        case .profile(let name): try fields.encode(name, forKey: .profile)
        }
    }

    /// `go` is `next`, `previous`, or `page` with the page's number in `page`.
    private static func pageTurn(_ fields: KeyedDecodingContainer<CodingKeys>) throws -> PageTurn {
        switch try fields.decode(String.self, forKey: .go) {
        case "next": return .next
        case "previous": return .previous
        case "page": return .page(try fields.decode(Int.self, forKey: .page))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .go, in: fields, debugDescription: "go is next, previous or page")
        }
    }
}

extension Button.Kind {
    /// Whether keys of this kind cover more than their own slot (`Span`): now-playing tiles and sliders.
    public var spans: Bool {
        switch self {
        case .nowPlaying, .slider: true
        default: false
        }
    }
}
