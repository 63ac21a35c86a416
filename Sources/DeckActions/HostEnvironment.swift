import Foundation

/// The environment variables the actions read and hand to what they start, passed in (not read from the
/// process) so tests can point HOME, the XDG dirs, SHELL and TERMINAL at temporary places in parallel.
public struct HostEnvironment: Sendable {
    /// All variables, handed unchanged to launched apps, commands and terminals.
    public var variables: [String: String]

    /// Wraps the given variables.
    public init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The host process's own environment.
    public static var current: HostEnvironment { HostEnvironment(ProcessInfo.processInfo.environment) }

    /// A variable's value, treating an empty value as unset (the XDG spec does the same).
    public subscript(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    var home: String { self["HOME"] ?? NSHomeDirectory() }

    /// `$XDG_DATA_HOME` first, then `$XDG_DATA_DIRS`: earlier dirs win over later ones.
    var dataDirs: [String] {
        let dataHome = self["XDG_DATA_HOME"] ?? home + "/.local/share"
        let system = (self["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        return [dataHome] + system
    }

    var configHome: String { self["XDG_CONFIG_HOME"] ?? home + "/.config" }

    public var stateHome: String { self["XDG_STATE_HOME"] ?? home + "/.local/state" }

    /// `$XDG_CURRENT_DESKTOP` is a colon-separated list (`ubuntu:GNOME`).
    var currentDesktops: [String] {
        (self["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init)
    }

    /// The message locale, in POSIX precedence order.
    var messagesLocale: String? { self["LC_ALL"] ?? self["LC_MESSAGES"] ?? self["LANG"] }

    /// `name` if it is a path to an executable, else the first executable called `name` on `$PATH`.
    func findExecutable(_ name: String) -> String? {
        if name.contains("/") {
            let path = expandingTilde(name)
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let dirs = (self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for dir in dirs {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Expands a leading `~` or `~/` to this environment's home.
    func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
