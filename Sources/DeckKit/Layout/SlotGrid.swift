/// How the 12 slots of a page sit on screen. Slot numbers are the same in both orientations
/// (a button in slot 5 on a landscape tablet is in slot 5 on a portrait phone), only rows and columns change.
public enum SlotGrid: String, CaseIterable, Sendable {
    /// 4 columns × 3 rows.
    case landscape
    /// 3 columns × 4 rows.
    case portrait

    /// Slots across one row.
    public var columns: Int { self == .landscape ? 4 : 3 }
    /// Rows on one page.
    public var rows: Int { DeckLayout.slotsPerPage / columns }

    /// The row (from the top) of a slot, filled row by row.
    public func row(of index: Int) -> Int { index / columns }
    /// The column (from the left) of a slot.
    public func column(of index: Int) -> Int { index % columns }

    /// The slot at a row and column, or nil when outside the grid.
    public func index(row: Int, column: Int) -> Int? {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return nil }
        return row * columns + column
    }
}
