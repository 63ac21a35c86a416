import Foundation

/// One launchable app as the device's app picker shows it.
public struct CatalogApp: Equatable, Sendable {
    /// The desktop-file id (`org.gnome.Nautilus.desktop`), what an app button stores.
    public var id: String
    /// The name in the host's locale.
    public var name: String
    /// The icon as a `data:` URL (PNG or SVG), nil when the entry has none that can be shown.
    public var icon: String?

    /// Creates an app row.
    public init(id: String, name: String, icon: String?) {
        self.id = id
        self.name = name
        self.icon = icon
    }
}

/// The seam to the desktop's list of apps (DESIGN.md#seams).
public struct AppCatalog: Sendable {
    /// Every launchable app, sorted by name.
    public var list: @Sendable () async -> [CatalogApp]

    /// Creates a catalog from its one operation.
    public init(list: @escaping @Sendable () async -> [CatalogApp]) {
        self.list = list
    }

    /// Reads the XDG data dirs of `environment` on every call; icons are cached until an applications
    /// dir changes.
    public static func live(environment: HostEnvironment = .current) -> AppCatalog {
        let store = AppCatalogStore(environment: environment)
        return AppCatalog { await store.list() }
    }

    /// Always answers `apps`.
    public static func fake(_ apps: [CatalogApp]) -> AppCatalog {
        AppCatalog { apps }
    }

    /// Traps if called: for tests that must never reach the catalog.
    public static let unimplemented = AppCatalog {
        preconditionFailure("AppCatalog.list called in a test that does not expect it")
    }
}

/// Owns the icon cache; an actor so concurrent `listApps` requests share one cache safely.
actor AppCatalogStore {
    private let environment: HostEnvironment
    private let locale: DesktopLocale?
    private var icons: IconResolver
    private var signature: [String: Date] = [:]

    init(environment: HostEnvironment) {
        self.environment = environment
        locale = environment.messagesLocale.flatMap(DesktopLocale.init)
        icons = IconResolver(environment: environment)
    }

    func list() -> [CatalogApp] {
        // A newly installed app adds a file to an applications dir; re-reading the themes then also picks
        // up the icons it brought.
        let current = DesktopEntryIndex.signature(of: environment)
        if current != signature {
            signature = current
            icons = IconResolver(environment: environment)
        }
        let apps = DesktopEntryIndex.files(in: environment).compactMap(app(at:))
        return apps.sorted {
            let order = $0.name.localizedCaseInsensitiveCompare($1.name)
            return order == .orderedSame ? $0.id < $1.id : order == .orderedAscending
        }
    }

    private func app(at file: LocatedDesktopFile) -> CatalogApp? {
        guard let text = try? String(contentsOfFile: file.path, encoding: .utf8) else { return nil }
        let entry = DesktopEntry(parsing: text)
        guard DesktopEntryIndex.isListed(entry, in: environment),
            let name = entry.localized("Name", for: locale)
        else { return nil }
        let icon = entry.localized("Icon", for: locale).flatMap { icons.dataURL(for: $0) }
        return CatalogApp(id: file.id, name: name, icon: icon)
    }
}
