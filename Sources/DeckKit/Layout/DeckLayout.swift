/// The deck: a list of pages of 12 slots, each empty or holding a button.
///
/// The host owns the only copy and broadcasts it after each edit. Every edit re-applies
/// `normalize`, so the last page is always an empty one to put the next button on.
public struct DeckLayout: Codable, Hashable, Sendable {
    /// Slots on one page (4×3 landscape, 3×4 portrait).
    public static let slotsPerPage = 12
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

    /// The pages; each has exactly `slotsPerPage` entries.
    public private(set) var pages: [[Button?]]

    /// A page with no buttons.
    public static let emptyPage: [Button?] = Array(repeating: nil, count: slotsPerPage)
    /// A layout with no buttons: exactly one empty page.
    public static let empty = DeckLayout()

    /// A layout with no buttons.
    public init() { pages = [Self.emptyPage] }

    /// A layout from pages received from outside; each page must have 12 entries.
    public init(pages: [[Button?]]) throws {
        for (number, page) in pages.enumerated() where page.count != Self.slotsPerPage {
            throw LayoutError.wrongPageSize(page: number, count: page.count)
        }
        self.pages = Self.normalize(pages)
    }

    /// The button in a slot, or nil for an empty or nonexistent slot.
    public func button(page: Int, index: Int) -> Button? {
        guard pages.indices.contains(page), (0..<Self.slotsPerPage).contains(index) else { return nil }
        return pages[page][index]
    }

    /// Puts a button in a slot, replacing what was there (the later edit wins).
    public mutating func set(page: Int, index: Int, button: Button) throws {
        try check(page: page, index: index)
        try Self.check(button)
        var edited = pages
        edited[page][index] = button
        pages = try Self.withinLimit(Self.normalize(edited))
    }

    /// Empties a slot (emptying an empty slot is allowed and changes nothing).
    public mutating func clear(page: Int, index: Int) throws {
        try check(page: page, index: index)
        pages[page][index] = nil
        pages = Self.normalize(pages)
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
        pages = try Self.withinLimit(Self.normalize(edited))
    }

    /// The page rule: the last page is always empty, two trailing empty pages collapse to one,
    /// and with no buttons there is exactly one page. Empty pages between full ones stay.
    public static func normalize(_ pages: [[Button?]]) -> [[Button?]] {
        var pages = pages
        while pages.count > 1, isEmpty(pages[pages.count - 1]), isEmpty(pages[pages.count - 2]) {
            pages.removeLast()
        }
        if let last = pages.last, isEmpty(last) { return pages }
        return pages + [emptyPage]
    }

    private static func isEmpty(_ page: [Button?]) -> Bool { page.allSatisfy { $0 == nil } }

    private static func withinLimit(_ pages: [[Button?]]) throws -> [[Button?]] {
        guard pages.count <= maxPages else { throw LayoutError.tooManyPages(limit: maxPages) }
        return pages
    }

    private static func check(_ button: Button) throws {
        guard button.label.count <= maxLabel else { throw LayoutError.fieldTooLong(field: "label", limit: maxLabel) }
        let field: (name: String, value: String) =
            switch button.kind {
            case .app(let appId): ("appId", appId)
            case .command(let command): ("command", command)
            case .terminal(let directory): ("directory", directory)
            case .record: ("", "")
            }
        guard field.value.utf8.count <= maxField else {
            throw LayoutError.fieldTooLong(field: field.name, limit: maxField)
        }
    }

    private func check(page: Int, index: Int) throws {
        guard pages.indices.contains(page) else {
            throw LayoutError.pageOutOfRange(page: page, pageCount: pages.count)
        }
        guard (0..<Self.slotsPerPage).contains(index) else { throw LayoutError.indexOutOfRange(index: index) }
    }

    private enum CodingKeys: String, CodingKey { case pages }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(pages: try fields.decode([[Button?]].self, forKey: .pages))
        } catch let error as LayoutError {
            throw DecodingError.dataCorruptedError(forKey: .pages, in: fields, debugDescription: "\(error.name)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(pages, forKey: .pages)
    }
}
