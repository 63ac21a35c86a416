/// The deck: a list of pages of `grid.slots` slots (12 unless the size was changed), each empty or holding a button.
///
/// The host owns the only copy and broadcasts it after each edit. Every edit re-applies
/// `normalize`, so the last page is always an empty one to put the next button on.
public struct DeckLayout: Codable, Hashable, Sendable {
    /// Slots on a page of the standard grid (4×3 landscape, 3×4 portrait); `slots` is this deck's.
    public static let slotsPerPage = GridSize.standard.slots
    /// Pages at most, the empty last one included: a device cannot grow the layout (re-saved and
    /// re-broadcast whole after every edit) without bound.
    public static let maxPages = 100
    /// Longest label, in characters.
    public static let maxLabel = 64
    /// Longest command line, app id or directory, in UTF-8 bytes.
    public static let maxField = 4096

    /// A page number and a slot number on it.
    public struct Slot: Hashable, Sendable {
        public var page: Int
        public var index: Int
        public init(page: Int, index: Int) {
            self.page = page
            self.index = index
        }
    }

    /// The pages; each has exactly `slots` entries.
    public private(set) var pages: [[Button?]]
    /// How many keys a page holds, for the deck and every folder in it.
    public private(set) var grid: GridSize
    /// Slots on one page of this deck.
    public var slots: Int { grid.slots }

    /// A page with no buttons.
    public static let emptyPage: [Button?] = Array(repeating: nil, count: slotsPerPage)
    /// A layout with no buttons: exactly one empty page.
    public static let empty = DeckLayout()

    /// A layout with no buttons.
    public init() {
        pages = [Self.emptyPage]
        grid = .standard
    }

    /// A layout from pages received from outside; each page must have `grid.slots` entries.
    public init(pages: [[Button?]], grid: GridSize = .standard) throws {
        for (number, page) in pages.enumerated() where page.count != grid.slots {
            throw LayoutError.wrongPageSize(page: number, count: page.count)
        }
        // A folder's pages are held to the same shape, however deep (a config edited by hand).
        for case .folder(let inner)? in pages.joined().map({ $0?.kind }) {
            _ = try DeckLayout(pages: inner, grid: grid)
        }
        for page in pages { try Span.check(page: page, grid: grid) }
        self.grid = grid
        self.pages = Self.normalize(pages, slots: grid.slots)
    }

    /// The same keys on pages of another size (`GridSize.resize`: every key kept, what does not fit on following
    /// pages); refused when the deck would pass `maxPages`.
    public mutating func resize(to size: GridSize) throws {
        let resized = grid.resize(pages, to: size)
        guard Self.pageCount(resized) <= Self.maxPages else { throw LayoutError.tooManyPages(limit: Self.maxPages) }
        self = try DeckLayout(pages: resized, grid: size)
    }

    /// The button in a slot, or nil for an empty or nonexistent slot.
    public func button(page: Int, index: Int) -> Button? {
        guard pages.indices.contains(page), (0..<slots).contains(index) else { return nil }
        return pages[page][index]
    }

    /// Puts a button in a slot, replacing what was there (the later edit wins).
    public mutating func set(page: Int, index: Int, button: Button) throws {
        try check(page: page, index: index)
        guard Self.depth(of: button) <= Self.maxFolderDepth else {
            throw LayoutError.folderTooDeep(limit: Self.maxFolderDepth)
        }
        let button = Self.normalized(button, slots: slots)
        try Self.check(button, slots: slots)
        var edited = pages
        edited[page][index] = keepingToggleState(button, page: page, index: index)
        try Span.check(page: edited[page], grid: grid)
        pages = try Self.withinLimit(Self.normalize(edited, slots: slots))
    }

    /// Empties a slot (emptying an empty slot is allowed and changes nothing).
    public mutating func clear(page: Int, index: Int) throws {
        try check(page: page, index: index)
        pages[page][index] = nil
        pages = Self.normalize(pages, slots: slots)
    }

    /// Moves the button in `from` to `to`; a button already at `to` takes the place of the moved one.
    public mutating func move(from: Slot, to: Slot) throws {
        try check(page: from.page, index: from.index)
        try check(page: to.page, index: to.index)
        guard let moving = pages[from.page][from.index] else {
            throw LayoutError.emptySlot(page: from.page, index: from.index)
        }
        var edited = pages
        edited[from.page][from.index] = edited[to.page][to.index]
        edited[to.page][to.index] = moving
        try Span.check(page: edited[from.page], grid: grid)
        try Span.check(page: edited[to.page], grid: grid)
        pages = try Self.withinLimit(Self.normalize(edited, slots: slots))
    }

    /// Stores a toggle's new state once its action worked. Only when `slot` still holds `pressed` (in the state it
    /// had when pressed): a key edited, moved or flipped meanwhile is left as it now is. Returns whether it changed.
    public mutating func flipToggle(at slot: Slot, pressed: Button) -> Bool {
        guard case .toggle(let toggle) = pressed.kind, button(page: slot.page, index: slot.index) == pressed else {
            return false
        }
        var flipped = pressed
        flipped.kind = .toggle(toggle.with(isOn: !toggle.isOn))
        pages[slot.page][slot.index] = flipped
        return true
    }

    /// The page rule: the last page is always empty, two trailing empty pages collapse to one,
    /// and with no buttons there is exactly one page. Empty pages between full ones stay.
    /// `slots` is the size of a page added; by default that of the pages there are (12 when there are none).
    public static func normalize(_ pages: [[Button?]], slots: Int? = nil) -> [[Button?]] {
        let slots = slots ?? pages.first?.count ?? slotsPerPage
        var pages = pages
        while pages.count > 1, isEmpty(pages[pages.count - 1]), isEmpty(pages[pages.count - 2]) {
            pages.removeLast()
        }
        if let last = pages.last, isEmpty(last) { return pages }
        return pages + [Array(repeating: nil, count: slots)]
    }

    private static func isEmpty(_ page: [Button?]) -> Bool { page.allSatisfy { $0 == nil } }

    private static func withinLimit(_ pages: [[Button?]]) throws -> [[Button?]] {
        guard pageCount(pages) <= maxPages else { throw LayoutError.tooManyPages(limit: maxPages) }
        return pages
    }

    static func check(_ button: Button, slots: Int) throws {
        try CompoundRule.check(button.kind) { try check($0, slots: slots) }
        guard button.label.count <= maxLabel else { throw LayoutError.fieldTooLong(field: "label", limit: maxLabel) }
        try button.look.check()
        if case .folder(let pages) = button.kind {
            try check(folder: pages, slots: slots) { try check($0, slots: slots) }
        }
        if case .page(.page(let number)) = button.kind, !(0..<maxPages).contains(number) {
            throw LayoutError.badPageTurn
        }
        if case .profile(let name) = button.kind, ProfileSet.cleanName(name) != name {
            throw LayoutError.badProfileName
        }
        try checkSpan(of: button)
        let field: (name: String, value: String) =
            switch button.kind {
            case .app(let appId): ("appId", appId)
            case .command(let command): ("command", command)
            case .terminal(let directory): ("directory", directory)
            case .record, .hotkey, .media, .micMute, .nowPlaying, .slider, .multi, .toggle, .folder, .page: ("", "")
            case .profile(let name): ("profile", name)
            case .text(let text, _): ("", text)
            case .open(let target): ("target", target)
            }
        if case .text(let text, _) = button.kind {
            guard text.count <= maxText else { throw LayoutError.fieldTooLong(field: "text", limit: maxText) }
            return
        }
        guard field.value.utf8.count <= maxField else {
            throw LayoutError.fieldTooLong(field: field.name, limit: maxField)
        }
        if case .open(let target) = button.kind, !OpenTarget.isAllowed(target) {
            throw LayoutError.badTarget
        }
    }

    /// Only wide controls span, each by its own count: a now-playing tile 2 slots, a slider 2 to 4; a slider's
    /// binding must be one the host can follow.
    private static func checkSpan(of button: Button) throws {
        if case .slider(let binding) = button.kind, let problem = binding.problem {
            throw LayoutError.badSlider(problem)
        }
        switch (button.kind, button.span) {
        case (.nowPlaying, let span?) where span.slots == 2: return
        case (.nowPlaying, _): throw LayoutError.badSpan("a now-playing tile spans 2 slots")
        case (.slider, let span?) where (2...Span.widest).contains(span.slots): return
        case (.slider, _): throw LayoutError.badSpan("a slider spans 2 to 4 slots")
        case (_, nil): return
        case (_, .some): throw LayoutError.badSpan("only now-playing tiles and sliders span slots")
        }
    }

    /// The most characters a text key types.
    public static let maxText = 4096

    private func check(page: Int, index: Int) throws {
        guard pages.indices.contains(page) else {
            throw LayoutError.pageOutOfRange(page: page, pageCount: pages.count)
        }
        guard (0..<slots).contains(index) else { throw LayoutError.indexOutOfRange(index: index, slots: slots) }
    }

    private enum CodingKeys: String, CodingKey { case pages, grid }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let grid = try fields.decodeIfPresent(GridSize.self, forKey: .grid) ?? .standard
        do {
            try self.init(pages: try fields.decode([[Button?]].self, forKey: .pages), grid: grid)
        } catch let error as LayoutError {
            throw DecodingError.dataCorruptedError(forKey: .pages, in: fields, debugDescription: "\(error.name)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(pages, forKey: .pages)
        // The standard size is left out: a deck never resized keeps its old wire form.
        if grid != .standard { try fields.encode(grid, forKey: .grid) }
    }
}
