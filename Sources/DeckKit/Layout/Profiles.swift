// Profiles (PROTOCOL §6 "Profiles"): named decks, each with its own pages, grid size and keys. The host keeps them
// all and one shared current profile; each device shows the shared one or a profile of its own.

/// One named deck, and the apps it is for (`ProfileApps`: while one of them has the focus, the devices that follow
/// the shared profile show this one).
public struct Profile: Codable, Hashable, Sendable {
    public var name: String
    public var layout: DeckLayout
    /// Desktop entry ids, WM_CLASS names or Wayland app ids, as `ProfileApps.clean` keeps them; empty: none.
    public var apps: [String]

    public init(name: String, layout: DeckLayout = .empty, apps: [String] = []) {
        self.name = name
        self.layout = layout
        self.apps = apps
    }

    private enum CodingKeys: String, CodingKey { case name, layout, apps }

    // `apps` is left out when empty, so a config without apps reads and writes as it did before them.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        name = try fields.decode(String.self, forKey: .name)
        layout = try fields.decode(DeckLayout.self, forKey: .layout)
        apps = ProfileApps.clean(try fields.decodeIfPresent([String].self, forKey: .apps) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(name, forKey: .name)
        try fields.encode(layout, forKey: .layout)
        if !apps.isEmpty { try fields.encode(apps, forKey: .apps) }
    }
}

/// Why a profile operation was refused; nothing was changed.
public enum ProfileError: Error, Hashable, Sendable {
    /// No profile has this name.
    case noSuchProfile(String)
    /// A profile name that is empty, too long or only hidden characters.
    case badName
    /// Another profile has this name (ignoring case).
    case nameTaken(String)
    /// The last profile cannot be deleted.
    case lastProfile
    /// More than `ProfileSet.maxProfiles` profiles.
    case tooManyProfiles(limit: Int)

    /// A short name for the case, the one the shared fixture table uses.
    public var name: String {
        switch self {
        case .noSuchProfile: "noSuchProfile"
        case .badName: "badName"
        case .nameTaken: "nameTaken"
        case .lastProfile: "lastProfile"
        case .tooManyProfiles: "tooManyProfiles"
        }
    }
}

/// Every profile of the host, in the order the picker shows them, and the shared current one (the deck of every
/// device that follows it). There is always at least one profile, and `current` always names one of them.
public struct ProfileSet: Hashable, Sendable {
    /// The profile an older config's one deck becomes, and the first profile of a new host.
    public static let defaultName = "Default"
    /// The longest name, in characters.
    public static let maxName = DisplayName.maxCharacters
    /// Profiles at most: each may hold `DeckLayout.maxPages` pages, and the config is written whole.
    public static let maxProfiles = 32

    public private(set) var profiles: [Profile]
    /// The shared current profile's name.
    public private(set) var current: String

    /// One profile, "Default", holding `layout`.
    public init(layout: DeckLayout = .empty) {
        profiles = [Profile(name: Self.defaultName, layout: layout)]
        current = Self.defaultName
    }

    /// Profiles read from a config: names cleaned and made unique (`uniqueName`), an empty list becomes one empty
    /// "Default", and a `current` that names none of them becomes the first.
    public init(profiles given: [Profile], current: String?) {
        var kept: [Profile] = []
        for profile in given.prefix(Self.maxProfiles) {
            let cleaned = Self.cleanName(profile.name) ?? Self.defaultName
            kept.append(
                Profile(
                    name: Self.uniqueName(cleaned, taken: kept.map(\.name)), layout: profile.layout, apps: profile.apps)
            )
        }
        if kept.isEmpty { kept = [Profile(name: Self.defaultName)] }
        profiles = kept
        self.current = kept[0].name
        if let current, let found = index(of: current) { self.current = kept[found].name }
    }

    /// The names, in order.
    public var names: [String] { profiles.map(\.name) }

    /// Where the profile called `name` is (names compare ignoring case, as they are unique that way).
    public func index(of name: String) -> Int? {
        let wanted = name.lowercased()
        return profiles.firstIndex { $0.name.lowercased() == wanted }
    }

    /// The profile's name as stored, or nil when there is none by that name.
    public func stored(_ name: String) -> String? { index(of: name).map { profiles[$0].name } }

    /// The layout of the profile called `name`.
    public func layout(of name: String) -> DeckLayout? { index(of: name).map { profiles[$0].layout } }

    /// The shared current profile's layout.
    public var currentLayout: DeckLayout { layout(of: current) ?? .empty }

    /// Runs `edit` on the layout of the profile called `name`; nothing changes when it throws.
    public mutating func edit<T>(_ name: String, _ edit: (inout DeckLayout) throws -> T) throws -> T {
        guard let found = index(of: name) else { throw ProfileError.noSuchProfile(name) }
        var layout = profiles[found].layout
        let result = try edit(&layout)
        profiles[found].layout = layout
        return result
    }

    /// Makes `name` the shared current profile; returns its name as stored.
    @discardableResult
    public mutating func switchCurrent(to name: String) throws -> String {
        guard let found = stored(name) else { throw ProfileError.noSuchProfile(name) }
        current = found
        return found
    }

    /// Adds a profile under `name` (cleaned); refused when another has that name. Returns the name as stored.
    @discardableResult
    public mutating func add(_ name: String, layout: DeckLayout = .empty) throws -> String {
        guard let cleaned = Self.cleanName(name) else { throw ProfileError.badName }
        guard index(of: cleaned) == nil else { throw ProfileError.nameTaken(cleaned) }
        return try insert(Profile(name: cleaned, layout: layout))
    }

    /// Adds an imported profile: its name cleaned, and made unique by the clash rule (`uniqueName`) when taken.
    @discardableResult
    public mutating func adding(imported profile: Profile) throws -> String {
        guard let cleaned = Self.cleanName(profile.name) else { throw ProfileError.badName }
        return try insert(Profile(name: Self.uniqueName(cleaned, taken: names), layout: profile.layout))
    }

    private mutating func insert(_ profile: Profile) throws -> String {
        guard profiles.count < Self.maxProfiles else { throw ProfileError.tooManyProfiles(limit: Self.maxProfiles) }
        profiles.append(profile)
        return profile.name
    }

    /// Replaces the apps of the profile at `index` (`ProfileApps`: checked by the caller).
    mutating func setApps(_ apps: [String], at index: Int) { profiles[index].apps = apps }

    /// Deletes the profile called `name`; the last one stays. When it was the shared current one, the first of the
    /// others becomes current.
    public mutating func remove(_ name: String) throws {
        guard let found = index(of: name) else { throw ProfileError.noSuchProfile(name) }
        guard profiles.count > 1 else { throw ProfileError.lastProfile }
        let removed = profiles.remove(at: found)
        if removed.name == current { current = profiles[0].name }
    }

    /// Renames the profile called `name` to `newName` (cleaned), keeping its place; refused when another profile has
    /// that name (ignoring case: the same profile may change its case). The shared current profile stays current,
    /// and every profile key that shows it, in any profile, shows it under its new name. Returns the new name.
    @discardableResult
    public mutating func rename(_ name: String, to newName: String) throws -> String {
        guard let found = index(of: name) else { throw ProfileError.noSuchProfile(name) }
        guard let cleaned = Self.cleanName(newName) else { throw ProfileError.badName }
        if let other = index(of: cleaned), other != found { throw ProfileError.nameTaken(profiles[other].name) }
        let old = profiles[found].name
        profiles[found].name = cleaned
        if current == old { current = cleaned }
        for index in profiles.indices {
            profiles[index].layout = profiles[index].layout.renamingProfileKeys(from: old, to: cleaned)
        }
        return cleaned
    }

    /// A name as stored: hidden characters removed and trimmed (`DisplayName.strip`), 1…`maxName` characters; nil
    /// when nothing is left or it is too long.
    public static func cleanName(_ name: String) -> String? {
        let cleaned = DisplayName.strip(name)
        guard !cleaned.isEmpty, cleaned.count <= maxName else { return nil }
        return cleaned
    }

    /// The name clash rule of an import: `wanted` when no profile has it (ignoring case), else the first free of
    /// `wanted (2)`, `wanted (3)`… counting on from a number it already ends with (`Phone (2)` → `Phone (3)`), the
    /// name shortened so that the result fits `maxName`.
    public static func uniqueName(_ wanted: String, taken: [String]) -> String {
        let used = Set(taken.map { $0.lowercased() })
        guard used.contains(wanted.lowercased()) else { return wanted }
        var base = wanted
        var number = 2
        if let open = wanted.lastIndex(of: "("), wanted.hasSuffix(")"), open > wanted.startIndex,
            wanted[wanted.index(before: open)] == " ",
            let given = Int(wanted[wanted.index(after: open)..<wanted.index(before: wanted.endIndex)]), given >= 1
        {
            base = String(wanted[..<wanted.index(before: open)])
            number = given + 1
        }
        while true {
            let suffix = " (\(number))"
            let candidate = DisplayName.trimmed(String(base.prefix(maxName - suffix.count))) + suffix
            if !used.contains(candidate.lowercased()) { return candidate }
            number += 1
        }
    }
}

extension DeckLayout {
    /// Every check an edit makes, made on every key of a layout read from outside (a profile file): a layout's own
    /// decoding checks only its shape, as a config written by this host needs no more.
    public func checkEveryKey() throws {
        guard Self.pageCount(pages) <= Self.maxPages else { throw LayoutError.tooManyPages(limit: Self.maxPages) }
        for button in pages.joined().compactMap({ $0 }) {
            guard Self.depth(of: button) <= Self.maxFolderDepth else {
                throw LayoutError.folderTooDeep(limit: Self.maxFolderDepth)
            }
            try Self.check(Self.normalized(button, slots: slots), slots: slots)
        }
    }

    /// The layout with every profile key that shows `old` (ignoring case) showing `new`, in folders, multi-actions
    /// and toggles too.
    public func renamingProfileKeys(from old: String, to new: String) -> DeckLayout {
        let wanted = old.lowercased()
        func renamed(_ button: Button) -> Button {
            var button = button
            switch button.kind {
            case .profile(let name) where name.lowercased() == wanted: button.kind = .profile(new)
            case .folder(let pages): button.kind = .folder(pages: pages.map { $0.map { $0.map(renamed) } })
            case .multi(let steps):
                button.kind = .multi(
                    steps.map {
                        guard case .key(let held) = $0 else { return $0 }
                        return .key(renamed(held))
                    })
            case .toggle(var toggle):
                toggle.on = renamed(toggle.on)
                toggle.off = renamed(toggle.off)
                button.kind = .toggle(toggle)
            default: break
            }
            return button
        }
        let pages = pages.map { $0.map { $0.map(renamed) } }
        guard pages != self.pages, let layout = try? DeckLayout(pages: pages, grid: grid) else { return self }
        return layout
    }

    /// The stored icons the layout's keys show, folders' and held keys' included.
    public var imageNames: Set<String> {
        var names: Set<String> = []
        func visit(_ button: Button) {
            if let name = button.look.imageName { names.insert(name) }
            switch button.kind {
            case .folder(let pages): pages.joined().compactMap { $0 }.forEach(visit)
            case .multi(let steps):
                for case .key(let held) in steps { visit(held) }
            case .toggle(let toggle):
                visit(toggle.on)
                visit(toggle.off)
            default: break
            }
        }
        pages.joined().compactMap { $0 }.forEach(visit)
        return names
    }
}
