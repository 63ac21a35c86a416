import Foundation

/// The apps the first run's starter deck opens (issue 22): the desktop's default file manager and web browser.
public struct StarterApps: Equatable, Sendable {
    /// The default handler of `inode/directory`, nil when none is installed.
    public var fileManager: CatalogApp?
    /// The default handler of `x-scheme-handler/https` (else `http`, else `text/html`), nil when none is installed.
    public var webBrowser: CatalogApp?

    public init(fileManager: CatalogApp? = nil, webBrowser: CatalogApp? = nil) {
        self.fileManager = fileManager
        self.webBrowser = webBrowser
    }

    /// The desktop's defaults as `xdg-mime query default` finds them (`DefaultApps`); icons are left out (the
    /// device takes an app key's icon from the catalogue).
    public static func find(environment: HostEnvironment = .current) -> StarterApps {
        StarterApps(
            fileManager: DefaultApps.app(for: ["inode/directory"], category: "FileManager", in: environment),
            webBrowser: DefaultApps.app(
                for: ["x-scheme-handler/https", "x-scheme-handler/http", "text/html"], category: "WebBrowser",
                in: environment))
    }
}

/// The default app for a MIME type, read as the freedesktop "MIME Applications Associations" spec says (what
/// `xdg-mime query default` and GLib read): the `[Default Applications]` group of each `mimeapps.list` (and the
/// older `defaults.list`) in the config and data dirs, earliest first; the first entry named there that is
/// installed and shown in a launcher wins. When no file names one, an installed entry of `category` that handles
/// the type (the first by id). An entry that is not installed is never chosen: a key for it could not start.
enum DefaultApps {
    static func app(for types: [String], category: String, in environment: HostEnvironment) -> CatalogApp? {
        let files = listFiles(in: environment)
        for type in types {
            for file in files {
                for id in defaults(for: type, inFile: file) {
                    if let app = listedApp(id: id, in: environment) { return app }
                }
            }
        }
        return fallback(for: types, category: category, in: environment)
    }

    /// Every `mimeapps.list` to read, in the spec's order: the desktop-specific one before the plain one in each
    /// dir; config home, config dirs, data home, data dirs.
    static func listFiles(in environment: HostEnvironment) -> [String] {
        let desktops = environment.currentDesktops.map { $0.lowercased() }
        let configDirs = (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg").split(separator: ":").map(String.init)
        func names(in dir: String, legacy: Bool) -> [String] {
            desktops.map { "\(dir)/\($0)-mimeapps.list" } + ["\(dir)/mimeapps.list"]
                + (legacy ? ["\(dir)/defaults.list"] : [])
        }
        return ([environment.configHome] + configDirs).flatMap { names(in: $0, legacy: false) }
            + environment.dataDirs.flatMap { names(in: $0 + "/applications", legacy: true) }
    }

    /// The desktop-file ids `[Default Applications]` of one file gives `type`, in order.
    static func defaults(for type: String, inFile path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return defaults(for: type, inText: text)
    }

    static func defaults(for type: String, inText text: String) -> [String] {
        var inGroup = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                inGroup = trimmed == "[Default Applications]"
                continue
            }
            guard inGroup, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            guard trimmed[..<equals].trimmingCharacters(in: .whitespaces) == type else { continue }
            return trimmed[trimmed.index(after: equals)...].split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
        return []
    }

    /// The app of an installed entry a launcher shows, with its name in the host's locale.
    static func listedApp(id: String, in environment: HostEnvironment) -> CatalogApp? {
        guard let file = DesktopEntryIndex.file(forID: id, in: environment) else { return nil }
        return listedApp(file, in: environment)
    }

    private static func listedApp(_ file: LocatedDesktopFile, in environment: HostEnvironment) -> CatalogApp? {
        guard let text = try? String(contentsOfFile: file.path, encoding: .utf8) else { return nil }
        let entry = DesktopEntry(parsing: text)
        let locale = environment.messagesLocale.flatMap(DesktopLocale.init)
        guard DesktopEntryIndex.isListed(entry, in: environment), let name = entry.localized("Name", for: locale)
        else { return nil }
        return CatalogApp(id: file.id, name: name, icon: nil)
    }

    private static func fallback(for types: [String], category: String, in environment: HostEnvironment)
        -> CatalogApp?
    {
        for file in DesktopEntryIndex.files(in: environment) {
            guard let text = try? String(contentsOfFile: file.path, encoding: .utf8) else { continue }
            let entry = DesktopEntry(parsing: text)
            guard entry.list("Categories").contains(category), !Set(entry.list("MimeType")).isDisjoint(with: types)
            else { continue }
            if let app = listedApp(file, in: environment) { return app }
        }
        return nil
    }
}
