// Folders (PROTOCOL §6 "Folders and pages"): a folder key holds pages of its own, with the same page rule as the
// deck; edits and presses name the folder by the path of folder keys from the deck down to it.

extension DeckLayout.Slot: Codable {
    private enum CodingKeys: String, CodingKey { case page, index }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(page: try fields.decode(Int.self, forKey: .page), index: try fields.decode(Int.self, forKey: .index))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(page, forKey: .page)
        try fields.encode(index, forKey: .index)
    }
}

extension DeckLayout {
    /// Folders inside folders at most: a folder on the deck is 1 deep, one inside it 2, and so on. Deeper than a
    /// person can keep in mind on a tablet, and it bounds the work of every check.
    public static let maxFolderDepth = 4
    /// The slot of a folder's first page where the device draws its back key; nothing is stored there.
    public static let backSlot = Slot(page: 0, index: 0)

    /// How many folders deep a button reaches: 0 for a key, 1 for a folder of keys, 2 for a folder holding one…
    public static func depth(of button: Button) -> Int {
        guard case .folder(let pages) = button.kind else { return 0 }
        return 1 + pages.joined().compactMap { $0 }.map(depth(of:)).reduce(0, max)
    }

    /// The pages of the deck, its folders' pages and theirs counted too: `maxPages` bounds them all, so the
    /// layout broadcast after every edit stays as small as it was before folders.
    public static func pageCount(_ pages: [[Button?]]) -> Int {
        pages.count
            + pages.joined().reduce(0) { sum, button in
                guard case .folder(let inner)? = button?.kind else { return sum }
                return sum + pageCount(inner)
            }
    }

    /// The pages of the folder at `path` (the deck's own for an empty path), or nil when a step of the path is
    /// not a folder key.
    public func pages(in path: [Slot]) -> [[Button?]]? {
        var pages = self.pages
        for step in path {
            guard pages.indices.contains(step.page), (0..<slots).contains(step.index),
                case .folder(let inner)? = pages[step.page][step.index]?.kind
            else { return nil }
            pages = inner
        }
        return pages
    }

    /// The button in a slot of the folder at `path`, or nil.
    public func button(page: Int, index: Int, in path: [Slot]) -> Button? {
        guard let pages = pages(in: path), pages.indices.contains(page), (0..<slots).contains(index)
        else { return nil }
        return pages[page][index]
    }

    /// `set(page:index:button:)` inside the folder at `path`; a folder set there must leave the whole deck at
    /// most `maxFolderDepth` deep.
    public mutating func set(page: Int, index: Int, button: Button, in path: [Slot]) throws {
        guard path.count + Self.depth(of: button) <= Self.maxFolderDepth else {
            throw LayoutError.folderTooDeep(limit: Self.maxFolderDepth)
        }
        try inFolder(path, touching: [Slot(page: page, index: index)]) {
            try $0.set(page: page, index: index, button: button)
        }
    }

    /// `clear(page:index:)` inside the folder at `path`.
    public mutating func clear(page: Int, index: Int, in path: [Slot]) throws {
        try inFolder(path, touching: []) { try $0.clear(page: page, index: index) }
    }

    /// `move(from:to:)` within the folder at `path`; its back slot neither gives nor takes a key.
    public mutating func move(from: Slot, to: Slot, in path: [Slot]) throws {
        try inFolder(path, touching: [from, to]) { try $0.move(from: from, to: to) }
    }

    /// Runs an edit on the folder at `path` as a layout of its own (same page rule and checks), then puts it
    /// back; the whole deck is left unchanged when any step throws.
    private mutating func inFolder(_ path: [Slot], touching slots: [Slot], _ edit: (inout DeckLayout) throws -> Void)
        throws
    {
        guard let step = path.first else { return try edit(&self) }
        guard let button = button(page: step.page, index: step.index), case .folder(let inner) = button.kind else {
            throw LayoutError.notAFolder(page: step.page, index: step.index)
        }
        if path.count == 1, slots.contains(Self.backSlot) { throw LayoutError.backSlot }
        var folder = DeckLayout(folderPages: inner, grid: grid)
        try folder.inFolder(Array(path.dropFirst()), touching: slots, edit)
        var edited = pages
        edited[step.page][step.index] = Button(
            label: button.label, kind: .folder(pages: folder.pages), look: button.look)
        guard Self.pageCount(edited) <= Self.maxPages else { throw LayoutError.tooManyPages(limit: Self.maxPages) }
        self = try DeckLayout(pages: edited, grid: grid)
    }

    /// A folder's pages, already checked when the folder was set or the config read.
    private init(folderPages: [[Button?]], grid: GridSize) {
        self = (try? DeckLayout(pages: folderPages, grid: grid)) ?? DeckLayout()
    }

    /// The checks a folder set by a device must pass: pages of 12, its back slot empty, every key inside it
    /// checked as a key of the deck is.
    static func check(folder pages: [[Button?]], slots: Int, check: (Button) throws -> Void) throws {
        guard !pages.isEmpty else { throw LayoutError.wrongPageSize(page: 0, count: 0) }
        for (number, page) in pages.enumerated() where page.count != slots {
            throw LayoutError.wrongPageSize(page: number, count: page.count)
        }
        guard pages[backSlot.page][backSlot.index] == nil else { throw LayoutError.backSlot }
        for button in pages.joined().compactMap({ $0 }) { try check(button) }
    }

    /// The button with its folders' pages (and theirs) put through the page rule; a folder without pages gets one
    /// empty page of `slots`.
    static func normalized(_ button: Button, slots: Int) -> Button {
        guard case .folder(let pages) = button.kind else { return button }
        let inner = normalize(pages.map { $0.map { $0.map { normalized($0, slots: slots) } } }, slots: slots)
        var folder = button  // everything else the key carries (state command, span) stays
        folder.kind = .folder(pages: inner)
        return folder
    }
}
