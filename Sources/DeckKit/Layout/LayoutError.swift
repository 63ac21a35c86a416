/// Why a layout edit was refused. The layout is left unchanged.
public enum LayoutError: Error, Hashable, Sendable {
    /// The page number names no page of the layout.
    case pageOutOfRange(page: Int, pageCount: Int)
    /// The slot number is outside 0…11.
    case indexOutOfRange(index: Int)
    /// A move was asked for a slot that holds no button.
    case emptySlot(page: Int, index: Int)
    /// A page received from outside does not have exactly 12 entries.
    case wrongPageSize(page: Int, count: Int)
    /// The edit would make more pages than `DeckLayout.maxPages`.
    case tooManyPages(limit: Int)
    /// A button's label or parameter is longer than its limit.
    case fieldTooLong(field: String, limit: Int)

    /// A short name for the case, the same one the shared fixture table uses.
    public var name: String {
        switch self {
        case .pageOutOfRange: "pageOutOfRange"
        case .indexOutOfRange: "indexOutOfRange"
        case .emptySlot: "emptySlot"
        case .wrongPageSize: "wrongPageSize"
        case .tooManyPages: "tooManyPages"
        case .fieldTooLong: "fieldTooLong"
        }
    }
}
