/// How many slots a wide control covers, and in which direction (PROTOCOL §6 "Tiles and sliders"): the key sits in
/// its first slot and covers the next `slots - 1` slots to its right (`row`) or below it (`column`) on the
/// landscape grid. Only a now-playing tile (2 slots) and a slider (2 to 4) span; the slots it covers stay `null`.
///
/// Wire form, flat beside the key's other fields: `"span":3,"along":"column"` (`along` absent: `row`).
public struct Span: Hashable, Sendable {
    public enum Axis: String, Codable, Hashable, Sendable {
        case row, column
    }

    public var slots: Int
    public var along: Axis

    public init(slots: Int, along: Axis = .row) {
        self.slots = slots
        self.along = along
    }

    /// The most slots a control may cover.
    public static let widest = 4

    /// The slots a key at `index` covers besides its own, on a page of `grid`; nil when they leave the row or the
    /// page.
    public func covered(from index: Int, in grid: GridSize) -> [Int]? {
        let row = index / grid.columns
        let column = index % grid.columns
        switch along {
        case .row:
            guard column + slots <= grid.columns else { return nil }
            return (1..<slots).map { index + $0 }
        case .column:
            guard row + slots <= grid.rows else { return nil }
            return (1..<slots).map { index + $0 * grid.columns }
        }
    }

    /// Refuses a page on which a wide control leaves its row or column, or covers a slot that holds a key or that
    /// another control covers; returns the covered slots, each with the slot of the control that covers it.
    @discardableResult
    public static func check(page: [Button?], grid: GridSize) throws(LayoutError) -> [Int: Int] {
        var coveredBy: [Int: Int] = [:]
        for (index, button) in page.enumerated() {
            guard let span = button?.span else { continue }
            guard let covered = span.covered(from: index, in: grid) else {
                throw LayoutError.spanOutside(index: index, slots: span.slots, along: span.along.rawValue)
            }
            for slot in covered {
                if let other = coveredBy[slot] { throw LayoutError.slotCovered(index: slot, by: other) }
                coveredBy[slot] = index
            }
        }
        // Another control's own slot counts as a key: two controls never overlap.
        for (slot, owner) in coveredBy.sorted(by: { $0.key < $1.key }) where page[slot] != nil {
            throw LayoutError.slotCovered(index: slot, by: owner)
        }
        return coveredBy
    }
}
