import Foundation

/// The names of the monitors this host made for Extend, kept on disk (`virtual-monitors.json` in the state folder,
/// 0600) so that a host that was killed has them removed at its next start, and so that a desktop that cannot remove
/// a monitor has it re-used rather than another made. Written before a monitor is made and after it is gone.
public struct VirtualMonitorRecord: Sendable {
    public let file: URL

    public init(folder: URL) {
        file = folder.appendingPathComponent("virtual-monitors.json")
    }

    /// What the file says: the names made and whether each is in use (shown) now.
    public struct Contents: Codable, Equatable, Sendable {
        /// Every monitor made (kept when the desktop can only park it, so it is re-used).
        public var made: [String] = []
        /// The ones that were shown and not yet taken away.
        public var shown: [String] = []
        /// What the back-end must put back when it takes the shown ones away, in its own form (X11: the screen's
        /// size and the CRTCs that moved, as JSON); nil when it needs nothing.
        public var saved: String?
        public init() {}
    }

    public func load() -> Contents {
        guard let data = try? Data(contentsOf: file),
            let contents = try? JSONDecoder().decode(Contents.self, from: data)
        else { return Contents() }
        return contents
    }

    /// Changes the record; a failure to write is not fatal (the monitor is still removed at the end of viewing).
    public func update(_ change: (inout Contents) -> Void) {
        var contents = load()
        change(&contents)
        guard let data = try? JSONEncoder().encode(contents) else { return }
        let temporary = file.appendingPathExtension("tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { return }
        rename(temporary.path, file.path)
    }
}
