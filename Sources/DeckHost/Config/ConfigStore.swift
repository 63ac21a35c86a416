import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes the files in the config directory: `config.json` (layout and settings) and
/// `devices.json` (paired devices and their secrets, mode 0600).
///
/// Not thread-safe: the host's actor owns the one instance.
public final class ConfigStore {
    /// The files the store manages.
    public enum File: String, Sendable, CaseIterable {
        case config = "config.json"
        case devices = "devices.json"

        var mode: mode_t { self == .devices ? 0o600 : 0o644 }
    }

    /// The config directory.
    public let directory: URL
    /// Problems met while loading (a corrupt file moved aside), for the log and `touchdeck status`.
    public private(set) var problems: [String] = []
    private let now: @Sendable () -> Date
    /// Files that were unreadable and could not be moved aside: never written, so never overwritten.
    private var frozen: Set<File> = []

    /// Opens the directory: creates it with mode 0700, or takes away the access an older version (or the
    /// user's umask) gave others to an existing one, since it holds the device secrets and the CA's key.
    public init(directory: URL, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.directory = directory
        self.now = now
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ConfigError.directory(directory.path)
            }
        } else if !isDirectory.boolValue {
            throw ConfigError.directory(directory.path)
        }
        try Self.tighten(directory)
        AtomicFile.removeLeftovers(in: directory)
    }

    /// Sets the directory's mode to 0700 when group or others have any access to it.
    private static func tighten(_ directory: URL) throws {
        var info = stat()
        guard stat(directory.path, &info) == 0 else { throw ConfigError.directory(directory.path) }
        guard info.st_mode & 0o077 != 0 else { return }
        guard chmod(directory.path, 0o700) == 0 else { throw ConfigError.system("chmod \(directory.path)", errno) }
    }

    /// `--config-dir` if given, else `$XDG_CONFIG_HOME/touchdeck`, else `~/.config/touchdeck`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("touchdeck")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/touchdeck")
    }

    /// The URL of one of the managed files.
    public func url(_ file: File) -> URL { directory.appendingPathComponent(file.rawValue) }

    /// Loads a file; absent → `fallback`; unreadable or undecodable → moved aside, reported, `fallback`.
    public func load<T: Decodable>(_ file: File, as type: T.Type, fallback: T) -> T {
        let url = url(file)
        guard FileManager.default.fileExists(atPath: url.path) else { return fallback }
        do {
            let data = try Data(contentsOf: url)
            return try Self.decoder.decode(T.self, from: data)
        } catch {
            setAside(file, because: Self.reason(error))
            return fallback
        }
    }

    /// Saves a file atomically with its mode (0600 for secrets).
    public func save<T: Encodable>(_ value: T, to file: File) throws {
        guard !frozen.contains(file) else { throw ConfigError.frozen(file.rawValue) }
        let data = try Self.encoder.encode(value)
        try AtomicFile.write(data, to: url(file), mode: file.mode)
    }

    /// Moves a bad file to `<name>.corrupt-<timestamp>` so that it is never overwritten.
    private func setAside(_ file: File, because reason: String) {
        let aside = asideURL(for: file)
        if rename(url(file).path, aside.path) == 0 {
            problems.append(
                "\(file.rawValue) could not be read (\(reason)); kept it as \(aside.lastPathComponent) and started from defaults"
            )
        } else {
            frozen.insert(file)
            problems.append(
                "\(file.rawValue) could not be read (\(reason)) nor moved aside; started from defaults and will not write it"
            )
        }
    }

    /// `<name>.corrupt-<ms>`, with `-2`, `-3`… when that name is taken: rename() would replace a file kept
    /// earlier in the same millisecond, or before the clock was set back.
    private func asideURL(for file: File) -> URL {
        let base = "\(file.rawValue).corrupt-\(Int(now().timeIntervalSince1970 * 1000))"
        var aside = directory.appendingPathComponent(base)
        var number = 1
        while FileManager.default.fileExists(atPath: aside.path) {
            number += 1
            aside = directory.appendingPathComponent("\(base)-\(number)")
        }
        return aside
    }

    /// Says what was wrong without quoting the file: the secrets file must never reach a log.
    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: return "not valid JSON"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            return "bad value at \(path(context.codingPath))"
        case let error as CocoaError where error.code == .fileReadNoPermission: return "no permission"
        default: return "unreadable"
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.dateEncodingStrategy = .iso8601
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}
