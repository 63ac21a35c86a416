/// Why a layout edit was refused. The layout is left unchanged.
public enum LayoutError: Error, Hashable, Sendable {
    /// The page number names no page of the layout.
    case pageOutOfRange(page: Int, pageCount: Int)
    /// The slot number is outside 0…slots-1 of the deck's grid.
    case indexOutOfRange(index: Int, slots: Int)
    /// A move was asked for a slot that holds no button.
    case emptySlot(page: Int, index: Int)
    /// A page received from outside does not have exactly as many entries as the grid has slots.
    case wrongPageSize(page: Int, count: Int)
    /// The edit would make more pages than `DeckLayout.maxPages`.
    case tooManyPages(limit: Int)
    /// A button's label or parameter is longer than its limit.
    case fieldTooLong(field: String, limit: Int)
    /// An open key's target is not an http/https/mailto URL, an absolute path or `~/…`.
    case badTarget
    /// A multi-action with no steps or more than `CompoundRule.maxSteps`.
    case stepCount(limit: Int)
    /// A multi-action's delay outside `CompoundRule.delayRange`.
    case delayOutOfRange
    /// A multi-action or a toggle inside a multi-action's step or a toggle's action.
    case nestedKey
    /// A key's colour is not a palette name (`KeyLook.palette`).
    case badColor(String)
    /// A key's icon is not one visible character, or an app icon names no app; the text says which.
    case badIcon(String)
    /// A folder would sit deeper than `DeckLayout.maxFolderDepth`.
    case folderTooDeep(limit: Int)
    /// An edit's path names a slot that holds no folder.
    case notAFolder(page: Int, index: Int)
    /// Slot 0 of a folder's first page is its back key: nothing may be put there or moved from there.
    case backSlot
    /// A page key's page number is negative or past `DeckLayout.maxPages`.
    case badPageTurn
    /// A profile key's name is empty, longer than `ProfileSet.maxName` or holds hidden characters.
    case badProfileName
    /// A wide control (`Span`) would leave its row or column of the page.
    case spanOutside(index: Int, slots: Int, along: String)
    /// A slot a wide control covers holds a key, or is covered by another control.
    case slotCovered(index: Int, by: Int)
    /// A key spans slots it may not (only now-playing tiles span 2, sliders 2 to 4); the text says which.
    case badSpan(String)
    /// A slider's binding cannot be followed (an empty app name, a script without `{value}`); the text says which.
    case badSlider(String)

    /// A short name for the case, the same one the shared fixture table uses.
    public var name: String {
        switch self {
        case .pageOutOfRange: "pageOutOfRange"
        case .indexOutOfRange: "indexOutOfRange"
        case .emptySlot: "emptySlot"
        case .wrongPageSize: "wrongPageSize"
        case .tooManyPages: "tooManyPages"
        case .fieldTooLong: "fieldTooLong"
        case .badTarget: "badTarget"
        case .stepCount: "stepCount"
        case .delayOutOfRange: "delayOutOfRange"
        case .nestedKey: "nestedKey"
        case .badColor: "badColor"
        case .badIcon: "badIcon"
        case .folderTooDeep: "folderTooDeep"
        case .notAFolder: "notAFolder"
        case .backSlot: "backSlot"
        case .badPageTurn: "badPageTurn"
        case .badProfileName: "badProfileName"
        case .spanOutside: "spanOutside"
        case .slotCovered: "slotCovered"
        case .badSpan: "badSpan"
        case .badSlider: "badSlider"
        }
    }
}
