import Foundation

/// A portal's restore token (the ScreenCast's, or the RemoteDesktop's), kept in a file of the host's config dir
/// (mode 0600: it stands for the user's approval) and renewed after every start, so the user approves once.
public struct PortalRestoreToken: Sendable {
    public let file: URL

    /// The token file `name` in `directory` (`portal-restore-token` for screen casts).
    public init(directory: URL, name: String = "portal-restore-token") { file = directory.appendingPathComponent(name) }

    /// The token of captures of the monitor `name` (`portal-restore-token-HEADLESS-2`): one per monitor, because the
    /// portal restores the very monitor a token was given for (xdg-desktop-portal-wlr keeps the output's name in it),
    /// so one shared token made every later capture show the monitor picked first, whichever was asked for.
    public func forMonitor(_ name: String) -> PortalRestoreToken {
        let safe = String(name.unicodeScalars.map { Self.fileNameSafe.contains($0) ? Character($0) : "_" })
        return PortalRestoreToken(
            directory: file.deletingLastPathComponent(), name: "\(file.lastPathComponent)-\(safe)")
    }

    /// The characters of a monitor's name kept as they are in the file's name (the others become `_`).
    private static let fileNameSafe = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")

    /// The saved token; nil when there is none (or it cannot be read: the user is then asked again).
    public func load() -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// Replaces the saved token: a temporary file made 0600 before it is written, then renamed over the old one.
    public func save(_ token: String) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).tmp")
        _ = FileManager.default.createFile(
            atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try Data((token + "\n").utf8).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
    }
}
