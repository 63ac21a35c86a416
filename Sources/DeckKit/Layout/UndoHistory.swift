/// The host's undo (PROTOCOL §6 "Moving keys, copy and undo"): the layouts each profile had before its last
/// `limit` edits, newest last. Kept in memory by the host's actor: a restart starts with nothing to undo.
public struct UndoHistory: Hashable, Sendable {
    /// Edits undone at most, per profile.
    public static let limit = 20

    private var before: [String: [DeckLayout]] = [:]

    public init() {}

    /// Notes the layout a profile had before an edit changed it; an edit that changed nothing is not a step.
    public mutating func record(_ layout: DeckLayout, before edited: DeckLayout, profile: String) {
        guard layout != edited else { return }
        var steps = before[profile.lowercased(), default: []]
        steps.append(layout)
        if steps.count > Self.limit { steps.removeFirst(steps.count - Self.limit) }
        before[profile.lowercased()] = steps
    }

    /// The layout to go back to for `profile`, taken off its history; nil when there is nothing to undo.
    public mutating func undo(profile: String) -> DeckLayout? {
        before[profile.lowercased()]?.popLast()
    }

    /// How many edits of `profile` can be undone.
    public func steps(profile: String) -> Int { before[profile.lowercased()]?.count ?? 0 }

    /// A profile deleted: its history goes with it.
    public mutating func forget(profile: String) { before[profile.lowercased()] = nil }

    /// A profile renamed: its history goes on under the new name.
    public mutating func rename(profile: String, to newName: String) {
        let steps = before.removeValue(forKey: profile.lowercased())
        before[newName.lowercased()] = steps
    }
}
