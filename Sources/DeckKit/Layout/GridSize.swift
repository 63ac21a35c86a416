/// How many keys a page holds (PROTOCOL §6 "Grid sizes"): columns × rows on a landscape screen; a portrait screen
/// shows the same slots transposed (rows × columns), filled row by row in slot order.
public enum GridSize: String, Codable, CaseIterable, Hashable, Sendable {
    case threeByTwo = "3x2"
    case fourByThree = "4x3"
    case fiveByThree = "5x3"
    case eightByFour = "8x4"

    /// The deck's size until someone changes it, and the size of a layout without `grid`.
    public static let standard = GridSize.fourByThree

    /// Slots across a landscape row.
    public var columns: Int {
        switch self {
        case .threeByTwo: 3
        case .fourByThree: 4
        case .fiveByThree: 5
        case .eightByFour: 8
        }
    }

    /// Rows on a landscape page.
    public var rows: Int {
        switch self {
        case .threeByTwo: 2
        case .fourByThree, .fiveByThree: 3
        case .eightByFour: 4
        }
    }

    /// Slots on one page.
    public var slots: Int { columns * rows }

    /// The pages of a deck (and of its folders, however deep) laid out for `size`, every key kept: a key whose
    /// landscape row and column exist in the new size stays there on its page; the keys that do not fit, in slot
    /// order, fill new pages right after their page. Growing moves nothing, so going back and forth never loses
    /// or reorders a key.
    public func resize(_ pages: [[Button?]], to size: GridSize) -> [[Button?]] {
        var out: [[Button?]] = []
        for page in pages {
            var kept = [Button?](repeating: nil, count: size.slots)
            var moved: [Button] = []
            for (index, button) in page.enumerated() {
                guard let button else { continue }
                let row = index / columns
                let column = index % columns
                let resized = resizeFolder(button, to: size)
                if row < size.rows, column < size.columns {
                    kept[row * size.columns + column] = resized
                } else {
                    moved.append(resized)
                }
            }
            out.append(kept)
            while !moved.isEmpty {
                let chunk = Array(moved.prefix(size.slots))
                moved.removeFirst(chunk.count)
                out.append(chunk + [Button?](repeating: nil, count: size.slots - chunk.count))
            }
        }
        return DeckLayout.normalize(out)
    }

    private func resizeFolder(_ button: Button, to size: GridSize) -> Button {
        guard case .folder(let pages) = button.kind else { return button }
        var folder = button  // everything else the key carries (state command, span) stays
        folder.kind = .folder(pages: resize(pages, to: size))
        return folder
    }
}
