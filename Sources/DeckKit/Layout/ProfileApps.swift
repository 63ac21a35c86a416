// Decks that follow the focused app (DESIGN.md#deck, PROTOCOL §6 "Profiles"): a profile may name the apps it is
// for; while one of them has the focus, the devices that follow the shared profile show it, and when the focus
// leaves they show the shared current profile again, which the focus never changed.

/// The apps a profile names, and how an app that has the focus is matched against them.
public enum ProfileApps {
    /// Apps one profile may name at most.
    public static let maxApps = 16
    /// The longest app name, in characters (a desktop entry id such as `org.gnome.TextEditor.desktop` fits).
    public static let maxName = 128

    /// Why a list of apps was refused; nothing changed.
    public enum Problem: Error, Hashable, Sendable {
        /// An app name that is empty, too long or only hidden characters.
        case badName(String)
        /// More than `maxApps` names.
        case tooMany(limit: Int)
    }

    /// The names as kept: hidden characters removed and trimmed, empty and too-long names and repeats (ignoring
    /// case) left out, at most `maxApps`. Used on what a config holds; `checked` refuses instead.
    public static func clean(_ names: [String]) -> [String] { Array(distinct(names).prefix(maxApps)) }

    private static func distinct(_ names: [String]) -> [String] {
        var kept: [String] = []
        for name in names.map(DisplayName.strip) where !name.isEmpty && name.count <= maxName {
            if !kept.contains(where: { key($0) == key(name) }) { kept.append(name) }
        }
        return kept
    }

    /// The names a device or the CLI sent, cleaned as `clean` does; a bad name or too many is refused.
    public static func checked(_ names: [String]) throws -> [String] {
        for name in names {
            let stripped = DisplayName.strip(name)
            guard !stripped.isEmpty, stripped.count <= maxName else { throw Problem.badName(name) }
        }
        guard names.count <= maxApps * 4 else { throw Problem.tooMany(limit: maxApps) }
        let kept = distinct(names)
        guard kept.count <= maxApps else { throw Problem.tooMany(limit: maxApps) }
        return kept
    }

    /// What two names are compared by: lowercased, without a `.desktop` ending, so the desktop entry
    /// `firefox.desktop` matches the X11 class `firefox` and the Wayland app id `Firefox`.
    public static func key(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".desktop") ? String(lower.dropLast(8)) : lower
    }

    /// Whether a profile naming `apps` is for the focused app, known by `focused` (X11: its WM_CLASS instance and
    /// class; Wayland: its app id).
    public static func matches(_ apps: [String], focused: [String]) -> Bool {
        let wanted = Set(focused.map(key))
        return apps.contains { wanted.contains(key($0)) }
    }
}

extension ProfileApps.Problem: WireReportable {
    public var wireCode: WireErrorCode { .badMessage }
    public var wireMessage: String {
        switch self {
        case .badName(let name):
            "the app name \"\(name)\" is empty or longer than \(ProfileApps.maxName) characters"
        case .tooMany(let limit): "a profile names at most \(limit) apps"
        }
    }
}

extension ProfileSet {
    /// Sets the apps the profile called `name` is for (`ProfileApps.checked`).
    public mutating func setApps(_ apps: [String], of name: String) throws {
        let kept = try ProfileApps.checked(apps)
        guard let found = index(of: name) else { throw ProfileError.noSuchProfile(name) }
        setApps(kept, at: found)
    }

    /// The first profile, in order, that names the focused app; nil when none does.
    public func profile(forFocused focused: [String]) -> String? {
        guard !focused.isEmpty else { return nil }
        return profiles.first { ProfileApps.matches($0.apps, focused: focused) }?.name
    }
}

/// Which profile the devices that follow the shared profile show for the app that has the focus: a value the host
/// feeds each focus change, every change of the profiles, and a switch made by hand (DESIGN.md#state-machines).
public struct FocusFollow: Hashable, Sendable {
    /// The focused app's names, as the desktop gave them (empty: none, or not known).
    public private(set) var focused: [String] = []
    /// The profile shown for the focused app, instead of the shared current one; nil when it names no profile.
    public private(set) var shown: String?
    /// The user switched the shared profile by hand while this app had the focus: that choice stands until the
    /// focus moves on.
    private var switchedByHand = false

    public init() {}

    /// Another app has the focus; returns whether `shown` changed.
    @discardableResult
    public mutating func focus(_ names: [String], in profiles: ProfileSet) -> Bool {
        guard names != focused else { return false }
        focused = names
        switchedByHand = false
        return recheck(profiles)
    }

    /// The profiles changed (apps set, renamed, deleted): `shown` follows; returns whether it changed.
    @discardableResult
    public mutating func recheck(_ profiles: ProfileSet) -> Bool {
        let before = shown
        shown = switchedByHand ? nil : profiles.profile(forFocused: focused)
        return shown != before
    }

    /// The shared profile was switched by hand (a device, a profile key, the CLI): it shows until the focus
    /// moves to another app.
    public mutating func switchedShared() {
        switchedByHand = true
        shown = nil
    }

    /// What the devices that follow the shared profile show: the focused app's profile, else the shared current one.
    public func sharedProfile(_ profiles: ProfileSet) -> String {
        shown.flatMap(profiles.stored) ?? profiles.current
    }
}
