import DeckCrypto
import DeckKit
import DeckTransport
import Foundation

// Profiles (PROTOCOL §6 "Profiles", issue 22): named decks. Each device shows the shared current profile (the
// default) or one it keeps as its own, remembered per device id in the secrets file beside its permissions.
extension DeckServer {
    /// The profile the device behind `id` shows: the one it keeps, else the shared one (`sharedProfile`: the
    /// focused app's, else the shared current one).
    func shownProfile(for id: ConnectionID) -> String {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return sharedProfile }
        return shownProfile(device: deviceId)
    }

    /// The profile a paired device shows (a kept profile deleted meanwhile: the shared one).
    func shownProfile(device deviceId: String) -> String {
        guard let own = devices.record(id: deviceId)?.profile, let stored = config.profiles.stored(own) else {
            return sharedProfile
        }
        return stored
    }

    /// Whether the device follows the shared current profile.
    func follows(device deviceId: String) -> Bool {
        devices.record(id: deviceId)?.profile.flatMap(config.profiles.stored) == nil
    }

    /// The layout of the profile the device behind `id` shows, as sent.
    func layoutMessage(for id: ConnectionID) -> HostMessage {
        let name = shownProfile(for: id)
        let layout = config.profiles.layout(of: name) ?? .empty
        return .layout(.init(layout: layout, profile: name, undoSteps: undoHistory.steps(profile: name)))
    }

    /// Sends `profiles` to one connection; a device at protocol 2 or older is not sent it (it sees the profile it
    /// shows as its deck, the only one).
    func sendProfiles(to id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice, knowsProfiles(id) else { return }
        let message = HostMessage.Profiles(
            names: config.profiles.names, current: config.profiles.current, shown: shownProfile(device: deviceId),
            follows: follows(device: deviceId), apps: profileApps, focusProfile: focusFollow.shown)
        sendSealed(.profiles(message), to: id)
    }

    private func knowsProfiles(_ id: ConnectionID) -> Bool {
        let device = connections[id]?.session.deviceProtocol ?? ProtocolVersion.legacy
        return ProtocolVersion.agreed(device: device, host: ProtocolVersion.current) >= 3
    }

    /// The layout of profile `name` to every device that shows it, after it changed.
    func broadcastLayout(of name: String) {
        for (id, _) in authorizedConnections where shownProfile(for: id) == name {
            sendSealed(layoutMessage(for: id), to: id)
        }
    }

    /// Each device's deck and the profile list, after which profile shows where changed: `before` is what each
    /// connection showed, so only the ones whose profile changed get a new layout.
    func profilesChanged(showing before: [ConnectionID: String]) {
        for (id, _) in authorizedConnections {
            if before[id] != shownProfile(for: id) {
                sendSealed(layoutMessage(for: id), to: id)
                keyStatesShown(to: id)
            }
            sendProfiles(to: id)
        }
    }

    private var shownNow: [ConnectionID: String] { shownEverywhere }

    /// Shows profile `name` on the device `deviceId`: when it follows the shared profile, the shared one switches
    /// (every device that follows it goes along); when it keeps its own, only its own changes. Nil `deviceId` (the
    /// CLI) switches the shared one.
    func switchProfile(to name: String, device deviceId: String?) throws {
        guard let stored = config.profiles.stored(name) else { throw ProfileError.noSuchProfile(name) }
        let before = shownNow
        if let deviceId, !follows(device: deviceId) {
            try devices.update(id: deviceId) { $0.profile = stored }
        } else {
            var changed = config
            try changed.profiles.switchCurrent(to: stored)
            try saveConfig(changed)
            focusFollow.switchedShared()  // a choice made by hand stands until the focus moves on
        }
        log.info(
            "profile switched",
            ["profile": stored, "scope": deviceId.map { follows(device: $0) } ?? true ? "shared" : "device"])
        profilesChanged(showing: before)
    }

    /// Makes the device follow the shared profile, or keep the one it shows now as its own.
    func setFollowing(_ follow: Bool, device deviceId: String) throws {
        let before = shownNow
        let keep = shownProfile(device: deviceId)
        try devices.update(id: deviceId) { $0.profile = follow ? nil : keep }
        profilesChanged(showing: before)
    }

    /// Writes `changed` to the config file, then makes it the config; a failed save changes nothing.
    func saveConfig(_ changed: HostConfig) throws {
        try store.save(changed, to: .config)
        config = changed
        focusFollow.recheck(config.profiles)
        syncStateCommands()
    }

    /// The profile messages a device sends.
    func handleProfile(_ message: DeviceMessage, from id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }
        do {
            switch message {
            case .switchProfile(let request): try switchProfile(to: request.name, device: deviceId)
            case .followProfile(let request): try setFollowing(request.follow, device: deviceId)
            case .addProfile(let request):
                guard mayEdit(id, request: message.type) else { return }
                var changed = config
                try changed.profiles.add(request.name)
                try saveConfig(changed)
                profilesChanged(showing: shownNow)
            case .deleteProfile(let request):
                guard mayEdit(id, request: message.type) else { return }
                try deleteProfile(request.name)
            case .renameProfile(let request):
                guard mayEdit(id, request: message.type) else { return }
                try renameProfile(request.name, to: request.newName)
            case .importProfile(let request):
                guard mayEdit(id, request: message.type) else { return }
                let name = try importProfile(Data(request.file.utf8))
                sendSealed(.profileImported(.init(name: name)), to: id)
            case .setProfileApps(let request):
                guard mayEdit(id, request: message.type) else { return }
                try setProfileApps(request.apps, of: request.name)
            default: return
            }
        } catch {
            sendSealed(.error(.init(for: error, request: message.type)), to: id)
        }
    }

    /// Whether the device may change the deck; when not, it is told so (as for a layout edit).
    func mayEdit(_ id: ConnectionID, request: String) -> Bool {
        guard editAllowed(for: id) else {
            let text =
                "This device may not change the deck. On the computer, run: touchdeck devices allow-edit \"\(deviceName(of: id) ?? "NAME")\" on"
            sendSealed(.error(.init(code: .notAllowed, message: text, request: request)), to: id)
            return false
        }
        return true
    }

    /// Deletes a profile; the devices that kept it follow the shared one again.
    func deleteProfile(_ name: String) throws {
        guard let stored = config.profiles.stored(name) else { throw ProfileError.noSuchProfile(name) }
        let before = shownNow
        var changed = config
        try changed.profiles.remove(stored)
        try saveConfig(changed)
        undoHistory.forget(profile: stored)
        for record in devices.records
        where record.profile.flatMap(config.profiles.stored) == nil && record.profile != nil {
            try? devices.update(id: record.id) { $0.profile = nil }
        }
        profilesChanged(showing: before)
    }

    /// Renames a profile; the devices that keep it as their own keep it under its new name, its undo steps go along,
    /// and profile keys that show it are renamed with it (`ProfileSet.rename`). Returns the name as stored.
    @discardableResult
    func renameProfile(_ name: String, to newName: String) throws -> String {
        guard let stored = config.profiles.stored(name) else { throw ProfileError.noSuchProfile(name) }
        let before = shownNow
        let old = config
        var changed = config
        let renamed = try changed.profiles.rename(stored, to: newName)
        try saveConfig(changed)
        undoHistory.rename(profile: stored, to: renamed)
        for record in devices.records where record.profile?.lowercased() == stored.lowercased() {
            try? devices.update(id: record.id) { $0.profile = renamed }
        }
        log.notice("profile renamed", ["profile": renamed, "profile.old": stored])
        // The other decks whose profile keys showed it: their devices get the keys' new name, then the new list.
        for profile in changed.profiles.profiles
        where profile.name != renamed && profile.layout != old.profiles.layout(of: profile.name) {
            broadcastLayout(of: profile.name)
        }
        profilesChanged(showing: before)
        return renamed
    }

    /// Reads a profile file and adds its profile under the name clash rule; all or nothing: a refused file, a bad
    /// icon or a failed save leaves the config as it was. Returns the name the profile got.
    func importProfile(_ data: Data) throws -> String {
        let file = try ProfileFile.read(data)
        for (name, png) in file.icons where !Bytes.hex(SHA256.hash(png)).hasPrefix(String(name.dropLast(4))) {
            throw ProfileFileError.badIcon(name)
        }
        var changed = config
        let name = try changed.profiles.adding(imported: file.profile)
        try writeIcons(file.icons)
        try saveConfig(changed)
        log.notice("imported a profile", ["profile": name])
        profilesChanged(showing: shownNow)
        return name
    }

    /// The profile called `name` as a file, its stored icons inside.
    func exportProfile(_ name: String) throws -> ProfileFile {
        guard let stored = config.profiles.stored(name), let layout = config.profiles.layout(of: stored) else {
            throw ProfileError.noSuchProfile(name)
        }
        var icons: [String: Data] = [:]
        for icon in layout.imageNames {
            guard let png = try? Data(contentsOf: iconsDirectory.appendingPathComponent(icon)) else {
                throw IconStoreError.missing(icon)
            }
            icons[icon] = png
        }
        return ProfileFile(profile: Profile(name: stored, layout: layout), icons: icons)
    }

    /// Where stored icons are kept: `icons/` in the config dir.
    var iconsDirectory: URL { store.directory.appendingPathComponent("icons") }

    /// Whether a stored icon is there.
    func hasIcon(_ name: String) -> Bool {
        KeyLook.isImageName(name)
            && FileManager.default.fileExists(atPath: iconsDirectory.appendingPathComponent(name).path)
    }

    private func writeIcons(_ icons: [String: Data]) throws {
        guard !icons.isEmpty else { return }
        try FileManager.default.createDirectory(
            at: iconsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, png) in icons where !hasIcon(name) {
            try AtomicFile.write(png, to: iconsDirectory.appendingPathComponent(name), mode: 0o644)
        }
    }
}

/// A stored icon a key shows is not in the config dir.
enum IconStoreError: Error, WireReportable, CustomStringConvertible {
    case missing(String)

    var wireCode: WireErrorCode { .badMessage }
    var wireMessage: String { description }
    var description: String {
        switch self {
        case .missing(let name): "the icon \(name) is not stored on this host"
        }
    }
}

extension DeckServer {
    /// `touchdeck profile list|switch NAME|export NAME FILE|import FILE|delete NAME|rename OLD NEW`.
    func profileControl(_ request: ControlRequest) -> ControlResponse {
        do {
            var response = ControlResponse()
            switch request.command {
            case .switchProfile: try switchProfile(to: request.name ?? "", device: nil)
            case .exportProfile:
                response.file = String(decoding: try exportProfile(request.name ?? "").encoded(), as: UTF8.self)
                response.name = config.profiles.stored(request.name ?? "")
            case .importProfile: response.name = try importProfile(Data((request.file ?? "").utf8))
            case .deleteProfile:
                response.name = config.profiles.stored(request.name ?? "")
                try deleteProfile(request.name ?? "")
            case .renameProfile: response.name = try renameProfile(request.name ?? "", to: request.newName ?? "")
            case .profileApps: response.name = try profileAppsControl(request)
            default: break
            }
            response.profiles = profileSummaries
            return response
        } catch {
            return .failure((error as? any WireReportable)?.wireMessage ?? "\(error)")
        }
    }

    private var profileSummaries: [ProfileSummary] {
        config.profiles.profiles.map { profile in
            let keptBy = devices.records.filter { $0.profile.flatMap(config.profiles.stored) == profile.name }
            var summary = ProfileSummary(
                name: profile.name, current: profile.name == config.profiles.current,
                grid: profile.layout.grid.rawValue,
                pages: max(1, profile.layout.pages.count - 1), keptBy: keptBy.map(\.name))
            summary.apps = profile.apps.isEmpty ? nil : profile.apps
            summary.focused = profile.name == focusFollow.shown ? true : nil
            return summary
        }
    }
}
