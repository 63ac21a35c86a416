// Layout messages (PROTOCOL §6, DESIGN.md#deck). The host owns the layout; devices send edits and presses.

/// A device message that edits the layout.
public protocol LayoutEdit: MessageBody {
    /// Applies the edit; the layout is unchanged when it throws.
    func apply(to layout: inout DeckLayout) throws
}

extension DeviceMessage {
    /// Puts a button in a slot.
    public struct SetButton: LayoutEdit {
        public static let type = "setButton"
        public var page: Int
        public var index: Int
        public var button: Button
        /// The folder keys from the deck down to the folder edited; absent: the deck itself.
        public var path: [DeckLayout.Slot]?

        public init(page: Int, index: Int, button: Button, path: [DeckLayout.Slot]? = nil) {
            self.page = page
            self.index = index
            self.button = button
            self.path = path
        }

        /// Sets the button with its label cleaned (`DisplayName.strip`), and its folder's keys' labels: every
        /// device shows them.
        public func apply(to layout: inout DeckLayout) throws {
            try layout.set(page: page, index: index, button: Self.cleaned(button), in: path ?? [])
        }

        static func cleaned(_ button: Button) -> Button {
            var shown = button
            shown.label = DisplayName.strip(button.label)
            if case .toggle(var toggle) = shown.kind {
                toggle.onLabel = DisplayName.strip(toggle.onLabel)
                toggle.offLabel = DisplayName.strip(toggle.offLabel)
                shown.kind = .toggle(toggle)
            }
            if case .folder(let pages) = button.kind {
                shown.kind = .folder(pages: pages.map { $0.map { $0.map(cleaned) } })
            }
            return shown
        }
    }

    /// Empties a slot.
    public struct ClearButton: LayoutEdit {
        public static let type = "clearButton"
        public var page: Int
        public var index: Int
        /// The folder keys down to the folder edited; absent: the deck itself.
        public var path: [DeckLayout.Slot]?

        public init(page: Int, index: Int, path: [DeckLayout.Slot]? = nil) {
            self.page = page
            self.index = index
            self.path = path
        }

        public func apply(to layout: inout DeckLayout) throws {
            try layout.clear(page: page, index: index, in: path ?? [])
        }
    }

    /// Moves a button; a button at the destination takes the source slot.
    public struct MoveButton: LayoutEdit {
        public static let type = "moveButton"
        public var fromPage: Int
        public var fromIndex: Int
        public var toPage: Int
        public var toIndex: Int
        /// The folder keys down to the folder both slots are in; absent: the deck itself.
        public var path: [DeckLayout.Slot]?

        public init(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, path: [DeckLayout.Slot]? = nil) {
            self.fromPage = fromPage
            self.fromIndex = fromIndex
            self.toPage = toPage
            self.toIndex = toIndex
            self.path = path
        }

        public func apply(to layout: inout DeckLayout) throws {
            try layout.move(
                from: DeckLayout.Slot(page: fromPage, index: fromIndex),
                to: DeckLayout.Slot(page: toPage, index: toIndex), in: path ?? [])
        }
    }

    /// Changes the size of every page, the deck's and its folders' (`DeckLayout.resize`: every key is kept).
    public struct SetGrid: LayoutEdit {
        public static let type = "setGrid"
        public var grid: GridSize

        public init(grid: GridSize) { self.grid = grid }

        public func apply(to layout: inout DeckLayout) throws {
            try layout.resize(to: grid)
        }
    }

    /// Undoes the last edit of the profile this device shows (`UndoHistory`: up to 20, host-side).
    public struct Undo: MessageBody {
        public static let type = "undo"

        public init() {}
    }

    /// Runs the button in a slot.
    public struct Press: MessageBody {
        public static let type = "press"
        public var page: Int
        public var index: Int
        /// The folder keys down to the folder the key is in; absent: the deck itself.
        public var path: [DeckLayout.Slot]?

        public init(page: Int, index: Int, path: [DeckLayout.Slot]? = nil) {
            self.page = page
            self.index = index
            self.path = path
        }
    }
}

extension HostMessage {
    /// The whole layout, sent after `authorized` and after every change.
    public struct Layout: MessageBody {
        public static let type = "layout"
        public var layout: DeckLayout
        /// The name of the profile this layout is (PROTOCOL §6 "Profiles"); absent from an older host.
        public var profile: String?
        /// How many edits of this profile `undo` can take back; absent: none.
        public var undoSteps: Int?

        public init(layout: DeckLayout, profile: String? = nil, undoSteps: Int? = nil) {
            self.layout = layout
            self.profile = profile
            self.undoSteps = undoSteps == 0 ? nil : undoSteps
        }

        private enum CodingKeys: String, CodingKey { case profile, undoSteps }

        // `pages` sits flat beside `type`, exactly as DeckLayout encodes itself.
        public init(from decoder: any Decoder) throws {
            layout = try DeckLayout(from: decoder)
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            profile = try fields.decodeIfPresent(String.self, forKey: .profile)
            undoSteps = try fields.decodeIfPresent(Int.self, forKey: .undoSteps)
        }

        public func encode(to encoder: any Encoder) throws {
            try layout.encode(to: encoder)
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encodeIfPresent(profile, forKey: .profile)
            try fields.encodeIfPresent(undoSteps, forKey: .undoSteps)
        }
    }

    /// The outcome of a `press`; `reason` only when not ok.
    public struct PressResult: MessageBody {
        public static let type = "pressResult"
        public var page: Int
        public var index: Int
        public var ok: Bool
        public var reason: String?
        /// True on the first answer to a press whose action runs on (a command key): it started, and a second
        /// `pressResult` for the same slot follows with the outcome. Absent on a final answer.
        public var running: Bool?
        /// The press's `path`, so a key in a folder is told apart from the deck's key in the same slot.
        public var path: [DeckLayout.Slot]?

        public init(
            page: Int, index: Int, ok: Bool, reason: String? = nil, running: Bool? = nil, path: [DeckLayout.Slot]? = nil
        ) {
            self.page = page
            self.index = index
            self.ok = ok
            self.reason = reason
            self.running = running
            self.path = path
        }
    }
}
