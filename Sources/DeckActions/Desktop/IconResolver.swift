import Foundation

/// Turns a desktop entry's `Icon` value into a `data:` URL: absolute paths as they are, names through the
/// user's icon theme, its parents, hicolor, then the pixmaps dirs. Themes are read once per resolver.
final class IconResolver {
    private let environment: HostEnvironment
    private let baseDirs: [String]
    private var themes: [String: IconTheme?] = [:]
    private var urls: [String: String?] = [:]

    init(environment: HostEnvironment) {
        self.environment = environment
        baseDirs = [environment.home + "/.icons"] + environment.dataDirs.map { $0 + "/icons" }
    }

    /// The icon as a data URL, or nil when nothing usable (PNG or SVG) exists for it.
    func dataURL(for icon: String) -> String? {
        if let cached = urls[icon] { return cached }
        let url = resolvePath(icon).flatMap(Self.dataURL(ofFile:))
        urls[icon] = url
        return url
    }

    private func resolvePath(_ icon: String) -> String? {
        if icon.hasPrefix("/") { return FileManager.default.fileExists(atPath: icon) ? icon : nil }
        // Old entries name the file (`foo.png`); the spec says to look the stem up instead.
        var name = icon
        for suffix in [".png", ".svg", ".xpm"] where name.hasSuffix(suffix) { name = String(name.dropLast(4)) }
        for themeName in themeChain() {
            if let file = theme(themeName)?.bestFile(for: name) { return file.path }
        }
        for dir in environment.dataDirs.map({ $0 + "/pixmaps" }) {
            for ext in ["png", "svg"] where FileManager.default.fileExists(atPath: "\(dir)/\(name).\(ext)") {
                return "\(dir)/\(name).\(ext)"
            }
        }
        return nil
    }

    /// The user's theme, the themes it inherits from (breadth-first, each once), hicolor last.
    private func themeChain() -> [String] {
        var chain: [String] = []
        var queue = currentThemeName().map { [$0] } ?? []
        while !queue.isEmpty {
            let name = queue.removeFirst()
            guard name != "hicolor", !chain.contains(name) else { continue }
            chain.append(name)
            queue += theme(name)?.inherits ?? []
        }
        return chain + ["hicolor"]
    }

    private func theme(_ name: String) -> IconTheme? {
        if let cached = themes[name] { return cached }
        let loaded = IconTheme(named: name, baseDirs: baseDirs)
        themes[name] = loaded
        return loaded
    }

    /// The theme GTK or KDE is set to use; desktops without either file fall back to hicolor alone.
    private func currentThemeName() -> String? {
        let config = environment.configHome
        for path in ["\(config)/gtk-4.0/settings.ini", "\(config)/gtk-3.0/settings.ini"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let name = IniFile(parsing: text)["Settings", "gtk-icon-theme-name"]
            {
                return name.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        if let text = try? String(contentsOfFile: "\(config)/kdeglobals", encoding: .utf8) {
            return IniFile(parsing: text)["Icons", "Theme"]
        }
        return nil
    }

    private static func dataURL(ofFile path: String) -> String? {
        let type: String
        if path.hasSuffix(".png") {
            type = "image/png"
        } else if path.hasSuffix(".svg") {
            type = "image/svg+xml"
        } else {
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        return "data:\(type);base64,\(data.base64EncodedString())"
    }
}
