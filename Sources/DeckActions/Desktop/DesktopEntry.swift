/// The `[Desktop Entry]` group of a desktop file (freedesktop Desktop Entry spec 1.5), values kept raw
/// until asked for so each key's own escaping rules apply.
struct DesktopEntry: Equatable {
    /// Raw values by full key, locale suffix included (`Name[ko]`).
    private(set) var raw: [String: String] = [:]

    /// Parses the file's text; lines outside `[Desktop Entry]`, comments and malformed lines are skipped,
    /// as the spec asks readers to be lenient.
    init(parsing text: String) {
        var inMainGroup = false
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: \.isWhitespace)
            if trimmed.hasPrefix("#") || trimmed.isEmpty { continue }
            if trimmed.hasPrefix("[") {
                inMainGroup = trimmed.trimmingTrailingWhitespace() == "[Desktop Entry]"
                continue
            }
            guard inMainGroup, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<equals]).trimmingTrailingWhitespace()
            let value = trimmed[trimmed.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            // The spec says the first occurrence of a key wins over later duplicates.
            if raw[key] == nil { raw[key] = String(value) }
        }
    }

    /// A `string` value with `\s \n \t \r \\` unescaped.
    func string(_ key: String) -> String? {
        raw[key].map { Self.unescape($0) }
    }

    /// A `localestring` value: the best `Key[locale]` for `locale`, else the plain key.
    func localized(_ key: String, for locale: DesktopLocale?) -> String? {
        for suffix in locale?.candidates ?? [] {
            if let value = string("\(key)[\(suffix)]") { return value }
        }
        return string(key)
    }

    /// A `boolean` value; anything but `true` is false.
    func bool(_ key: String) -> Bool {
        raw[key]?.trimmingTrailingWhitespace() == "true"
    }

    /// A list value: `;`-separated, `\;` standing for a literal semicolon.
    func list(_ key: String) -> [String] {
        guard let value = raw[key] else { return [] }
        var items: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current += character == ";" ? ";" : "\\\(character)"
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ";" {
                items.append(Self.unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { items.append(Self.unescape(current)) }
        return items.filter { !$0.isEmpty }
    }

    static func unescape(_ value: String) -> String {
        var result = ""
        var escaped = false
        for character in value {
            guard escaped else {
                if character == "\\" { escaped = true } else { result.append(character) }
                continue
            }
            switch character {
            case "s": result.append(" ")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            default: result += "\\\(character)"
            }
            escaped = false
        }
        if escaped { result.append("\\") }
        return result
    }
}

/// A POSIX locale name (`ko_KR.UTF-8@mod`) split the way the Desktop Entry spec matches it.
struct DesktopLocale: Equatable {
    var language: String
    var country: String?
    var modifier: String?

    /// Parses `lang_COUNTRY.ENCODING@MODIFIER`; `C` and `POSIX` mean no translation.
    init?(_ name: String) {
        var rest = Substring(name)
        if let at = rest.firstIndex(of: "@") {
            modifier = String(rest[rest.index(after: at)...])
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        if let underscore = rest.firstIndex(of: "_") {
            country = String(rest[rest.index(after: underscore)...])
            rest = rest[..<underscore]
        }
        guard !rest.isEmpty, rest != "C", rest != "POSIX" else { return nil }
        language = String(rest)
    }

    /// Suffixes to try, best first: `lang_COUNTRY@MOD`, `lang_COUNTRY`, `lang@MOD`, `lang` (the encoding
    /// never takes part in matching).
    var candidates: [String] {
        var result: [String] = []
        if let country, let modifier { result.append("\(language)_\(country)@\(modifier)") }
        if let country { result.append("\(language)_\(country)") }
        if let modifier { result.append("\(language)@\(modifier)") }
        result.append(language)
        return result
    }
}

extension StringProtocol {
    func trimmingTrailingWhitespace() -> String {
        var view = Substring(self)
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}
