/// Where a page key turns the deck it sits in (PROTOCOL §6 "Folders and pages"): the next or the previous page,
/// or one page by number. The device turns its own pages; the host only stores the key.
public enum PageTurn: Hashable, Sendable {
    case next
    case previous
    /// A page by its number (0 is the first).
    case page(Int)

    /// The wire name of the direction (`go`).
    public var go: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .page: "page"
        }
    }

    /// The page a press shows, from `current` in a deck of `pageCount` pages, or nil when the numbered page does
    /// not exist. The always-empty last page (the one to add keys on) is skipped, so next and previous go round
    /// the pages that hold keys; with only that page there is nothing else to go to.
    public func destination(from current: Int, pageCount: Int) -> Int? {
        let shown = max(1, pageCount - 1)
        switch self {
        case .next: return current + 1 < shown ? current + 1 : 0
        case .previous: return current > 0 && current <= shown ? current - 1 : shown - 1
        case .page(let number): return (0..<shown).contains(number) ? number : nil
        }
    }
}
