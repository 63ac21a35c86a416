import Foundation

/// One icon file a theme offers for a name.
struct ThemeIconFile: Equatable {
    var path: String
    /// Nominal size in px from the theme's directory (`48x48/apps` → 48).
    var size: Int
    var isSVG: Bool

    /// Lower is better: a 64 px PNG, then SVG (scales to any size), then the largest PNG under 64 px,
    /// then the smallest one above it (the device scales it down).
    var rank: (Int, Int) {
        if !isSVG && size == IconTheme.preferredSize { return (0, 0) }
        if isSVG { return (1, 0) }
        if size < IconTheme.preferredSize { return (2, IconTheme.preferredSize - size) }
        return (3, size)
    }
}

/// One icon theme's files by icon name, read once from the theme's `index.theme` directories
/// (the Icon Theme spec's lookup, without scale > 1 dirs).
struct IconTheme {
    static let preferredSize = 64

    var name: String
    var inherits: [String]
    private var files: [String: [ThemeIconFile]] = [:]

    /// Reads the theme from every base dir that has it; nil when no base dir has an `index.theme`.
    init?(named name: String, baseDirs: [String]) {
        let roots = baseDirs.map { "\($0)/\(name)" }
        guard
            let indexText = roots.lazy.compactMap({ try? String(contentsOfFile: $0 + "/index.theme", encoding: .utf8) })
                .first
        else { return nil }
        self.name = name
        let index = IniFile(parsing: indexText)
        inherits = (index["Icon Theme", "Inherits"] ?? "").split(separator: ",").map { $0.trimmingTrailingWhitespace() }
        for directory in (index["Icon Theme", "Directories"] ?? "").split(separator: ",").map(String.init) {
            guard (Int(index[directory, "Scale"] ?? "1") ?? 1) == 1 else { continue }
            let size = Int(index[directory, "Size"] ?? "") ?? 0
            for root in roots { add(directory: root + "/" + directory, size: size) }
        }
    }

    /// The best file for `iconName`, or nil if this theme (without its parents) has none.
    func bestFile(for iconName: String) -> ThemeIconFile? {
        files[iconName]?.min { $0.rank < $1.rank }
    }

    private mutating func add(directory: String, size: Int) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for fileName in names {
            let isSVG = fileName.hasSuffix(".svg")
            guard isSVG || fileName.hasSuffix(".png") else { continue }
            let stem = String(fileName.dropLast(4))
            files[stem, default: []].append(ThemeIconFile(path: directory + "/" + fileName, size: size, isSVG: isSVG))
        }
    }
}

/// A minimal INI reader for `index.theme`, GTK's `settings.ini` and KDE's `kdeglobals`.
struct IniFile {
    private var values: [String: [String: String]] = [:]

    init(parsing text: String) {
        var group = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingTrailingWhitespace().drop(while: \.isWhitespace)
            if trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                group = String(trimmed.dropFirst().dropLast())
            } else if let equals = trimmed.firstIndex(of: "=") {
                let key = trimmed[..<equals].trimmingTrailingWhitespace()
                let value = trimmed[trimmed.index(after: equals)...].drop(while: \.isWhitespace)
                values[group, default: [:]][key] = String(value)
            }
        }
    }

    subscript(group: String, key: String) -> String? { values[group]?[key] }
}
