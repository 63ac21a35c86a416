import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

// Decks that follow the focused app (DESIGN.md#deck, PROTOCOL §6 "Profiles"): a profile may name the apps it is
// for; while one of them has the focus, the devices that follow the shared profile show it, and the shared current
// profile again once the focus leaves. The config's current profile is never changed by the focus, so "back" is
// always the profile they were on. The desktop's watch (`desktop.focus`) reports each change from its own thread;
// `FocusFollow` decides.
extension DeckServer {
    /// Follows the desktop's focus until the task is cancelled or the watch ends (a desktop that cannot say).
    func followFocus() async {
        if let reason = desktop.focus.unavailable {
            log.info("decks do not follow the focused app here", ["reason": reason])
        }
        for await focused in desktop.focus.follow() {
            focusChanged(focused)
        }
    }

    /// Another app has the focus: the devices that follow the shared profile show its profile, or the shared
    /// current one again.
    func focusChanged(_ focused: [String]) {
        let before = shownEverywhere
        guard focusFollow.focus(focused, in: config.profiles) else { return }
        log.info(
            "focused app", ["app": focused.joined(separator: " "), "profile": sharedProfile])
        profilesChanged(showing: before)
    }

    /// What the devices that follow the shared profile show: the focused app's profile, else the shared current one.
    var sharedProfile: String { focusFollow.sharedProfile(config.profiles) }

    /// Which profile each authorized connection shows now.
    var shownEverywhere: [ConnectionID: String] {
        Dictionary(uniqueKeysWithValues: authorizedConnections.map { ($0.0, shownProfile(for: $0.0)) })
    }

    /// The apps each profile names, for `profiles` (nil when none names any).
    var profileApps: [String: [String]]? {
        let named = config.profiles.profiles.filter { !$0.apps.isEmpty }
        return named.isEmpty ? nil : Dictionary(uniqueKeysWithValues: named.map { ($0.name, $0.apps) })
    }

    /// Sets the apps profile `name` is for (a device's `setProfileApps`, `touchdeck profile apps`); saved, and the
    /// devices that follow the shared profile switch at once when the focused app now names another.
    func setProfileApps(_ apps: [String], of name: String) throws {
        let before = shownEverywhere
        var changed = config
        try changed.profiles.setApps(apps, of: name)
        try saveConfig(changed)
        log.info(
            "profile apps set", ["profile": config.profiles.stored(name) ?? name, "apps": apps.joined(separator: " ")])
        profilesChanged(showing: before)
    }
}

extension DeckServer {
    /// `touchdeck profile apps NAME [add|remove APP…]`: adds or removes apps (nil action: only lists); returns the
    /// profile's name as stored.
    func profileAppsControl(_ request: ControlRequest) throws -> String {
        let name = request.name ?? ""
        guard let stored = config.profiles.stored(name), let index = config.profiles.index(of: stored) else {
            throw ProfileError.noSuchProfile(name)
        }
        let current = config.profiles.profiles[index].apps
        let given = request.apps ?? []
        switch request.action {
        case "add": try setProfileApps(current + given, of: stored)
        case "remove":
            let gone = Set(given.map(ProfileApps.key))
            try setProfileApps(current.filter { !gone.contains(ProfileApps.key($0)) }, of: stored)
        default: break
        }
        return stored
    }
}
