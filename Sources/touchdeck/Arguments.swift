import Foundation

/// The words after a subcommand: positionals, `--name value` / `--name=value` options and `--flag`s.
/// A tiny stand-in for swift-argument-parser, which this project cannot fetch.
struct Arguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Options that take a value; anything else starting with `--` is a flag.
    static let valued: Set<String> = [
        "port", "config-dir", "web-root", "log-level", "encoder", "display", "fps", "max-length",
        "profile", "label", "color", "icon", "badge", "state", "folder",
    ]

    init(_ words: [String]) throws {
        var rest = words[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("--"), word.count > 2 else {
                positionals.append(word)
                continue
            }
            let body = word.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                options[String(body[..<equals])] = String(body[body.index(after: equals)...])
            } else if Self.valued.contains(String(body)) {
                guard let value = rest.popFirst() else { throw UsageError("--\(body) needs a value") }
                options[String(body)] = value
            } else {
                flags.insert(String(body))
            }
        }
    }

    /// Rejects options and flags the command does not know.
    func allow(options allowed: Set<String>, flags allowedFlags: Set<String> = ["help"]) throws {
        if let unknown = options.keys.first(where: { !allowed.contains($0) }) {
            throw UsageError("unknown option --\(unknown)")
        }
        if let unknown = flags.first(where: { !allowedFlags.contains($0) }) {
            throw UsageError("unknown option --\(unknown)")
        }
    }

    /// `--config-dir` or the XDG default.
    var configDirectory: URL {
        options["config-dir"].map { URL(fileURLWithPath: $0) } ?? ConfigDefaults.directory
    }
}

/// A mistake in how the command was called; printed with the usage, exit code 64.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
