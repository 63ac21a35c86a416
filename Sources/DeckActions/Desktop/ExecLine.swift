/// A desktop entry's `Exec` key turned into an argument vector, per the Desktop Entry spec's
/// "The Exec key" section.
enum ExecLine {
    /// Why an `Exec` value cannot be run.
    enum ParseError: Error, Equatable {
        /// A double or single quote is never closed.
        case unterminatedQuote
        /// Nothing is left to run.
        case empty
    }

    /// What the field codes expand to; TouchDeck never passes files or URLs.
    struct Fields {
        var name: String
        var icon: String?
        var entryPath: String
    }

    /// Splits an already string-unescaped `Exec` value and expands its field codes.
    static func arguments(_ exec: String, fields: Fields) throws(ParseError) -> [String] {
        let expanded = try split(exec).flatMap { expand($0, fields: fields) }
        guard let program = expanded.first, !program.isEmpty else { throw .empty }
        return expanded
    }

    /// Quoting rules: arguments separated by spaces; inside double quotes `\"`, `` \` ``, `\$` and `\\`
    /// stand for the character. Backslashes outside quotes and single quotes are not in the spec but are
    /// common in real entries, so they are read the way GLib reads them.
    static func split(_ exec: String) throws(ParseError) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inToken = false
        var iterator = exec.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inToken { tokens.append(current) }
                current = ""
                inToken = false
            case "\"":
                inToken = true
                try readDoubleQuoted(&iterator, into: &current)
            case "'":
                inToken = true
                try readSingleQuoted(&iterator, into: &current)
            case "\\":
                inToken = true
                if let next = iterator.next() { current.append(next) }
            default:
                inToken = true
                current.append(character)
            }
        }
        if inToken { tokens.append(current) }
        return tokens
    }

    private static func readDoubleQuoted(
        _ iterator: inout String.Iterator, into current: inout String
    ) throws(ParseError) {
        while let character = iterator.next() {
            if character == "\"" { return }
            if character == "\\", let next = iterator.next() {
                if !"\"`$\\".contains(next) { current.append("\\") }
                current.append(next)
            } else {
                current.append(character)
            }
        }
        throw .unterminatedQuote
    }

    private static func readSingleQuoted(
        _ iterator: inout String.Iterator, into current: inout String
    ) throws(ParseError) {
        while let character = iterator.next() {
            if character == "'" { return }
            current.append(character)
        }
        throw .unterminatedQuote
    }

    /// One argument after field-code expansion: a lone `%f %F %u %U` vanishes, a lone `%i` becomes
    /// `--icon <Icon>`, `%c` is the name, `%k` the entry's path, `%%` a percent sign; deprecated and
    /// unknown codes are dropped.
    static func expand(_ token: String, fields: Fields) -> [String] {
        switch token {
        case "%f", "%F", "%u", "%U": return []
        case "%i": return fields.icon.map { ["--icon", $0] } ?? []
        default: break
        }
        guard token.contains("%") else { return [token] }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "%": result.append("%")
            case "c": result += fields.name
            case "k": result += fields.entryPath
            default: break
            }
        }
        // An argument made only of codes that expand to nothing (`%d`) vanishes like a lone `%f`.
        return result.isEmpty ? [] : [result]
    }
}
