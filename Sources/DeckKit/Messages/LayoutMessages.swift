// Layout messages (PROTOCOL §6, SPEC §4). The host owns the layout; devices send edits and presses.

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

        public init(page: Int, index: Int, button: Button) {
            self.page = page
            self.index = index
            self.button = button
        }

        /// Sets the button with its label cleaned (`DisplayName.strip`): every device shows it.
        public func apply(to layout: inout DeckLayout) throws {
            var shown = button
            shown.label = DisplayName.strip(button.label)
            try layout.set(page: page, index: index, button: shown)
        }
    }

    /// Empties a slot.
    public struct ClearButton: LayoutEdit {
        public static let type = "clearButton"
        public var page: Int
        public var index: Int

        public init(page: Int, index: Int) {
            self.page = page
            self.index = index
        }

        public func apply(to layout: inout DeckLayout) throws {
            try layout.clear(page: page, index: index)
        }
    }

    /// Moves a button; a button at the destination takes the source slot.
    public struct MoveButton: LayoutEdit {
        public static let type = "moveButton"
        public var fromPage: Int
        public var fromIndex: Int
        public var toPage: Int
        public var toIndex: Int

        public init(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int) {
            self.fromPage = fromPage
            self.fromIndex = fromIndex
            self.toPage = toPage
            self.toIndex = toIndex
        }

        public func apply(to layout: inout DeckLayout) throws {
            try layout.move(
                from: DeckLayout.Slot(page: fromPage, index: fromIndex),
                to: DeckLayout.Slot(page: toPage, index: toIndex))
        }
    }

    /// Runs the button in a slot.
    public struct Press: MessageBody {
        public static let type = "press"
        public var page: Int
        public var index: Int

        public init(page: Int, index: Int) {
            self.page = page
            self.index = index
        }
    }
}

extension HostMessage {
    /// The whole layout, sent after `authorized` and after every change.
    public struct Layout: MessageBody {
        public static let type = "layout"
        public var layout: DeckLayout

        public init(layout: DeckLayout) { self.layout = layout }

        // `pages` sits flat beside `type`, exactly as DeckLayout encodes itself.
        public init(from decoder: any Decoder) throws { layout = try DeckLayout(from: decoder) }
        public func encode(to encoder: any Encoder) throws { try layout.encode(to: encoder) }
    }

    /// The outcome of a `press`; `reason` only when not ok.
    public struct PressResult: MessageBody {
        public static let type = "pressResult"
        public var page: Int
        public var index: Int
        public var ok: Bool
        public var reason: String?

        public init(page: Int, index: Int, ok: Bool, reason: String? = nil) {
            self.page = page
            self.index = index
            self.ok = ok
            self.reason = reason
        }
    }
}
