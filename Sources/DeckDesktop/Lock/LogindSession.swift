import Foundation

/// Finding the host's logind session and reading its `LockedHint` from `loginctl`'s answer.
public enum LogindSession {
    /// The logind session this process runs in: `$XDG_SESSION_ID`, else the `session-<id>.scope` in its
    /// cgroup path (where logind puts every process of a session, and how sd_pid_get_session finds it).
    /// Nil outside a session, for example in a systemd user service or a container.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        cgroup: String? = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
    ) -> String? {
        if let id = environment["XDG_SESSION_ID"], isValid(id) { return id }
        return cgroup.flatMap(session(inCgroup:))
    }

    /// The session id in a `/proc/<pid>/cgroup` text ("0::/user.slice/user-1000.slice/session-3.scope").
    static func session(inCgroup text: String) -> String? {
        for line in text.split(separator: "\n") {
            for component in line.split(separator: "/").reversed() {
                guard component.hasPrefix("session-"), component.hasSuffix(".scope") else { continue }
                let id = String(component.dropFirst("session-".count).dropLast(".scope".count))
                if isValid(id) { return id }
            }
        }
        return nil
    }

    /// Session ids are short words of letters and digits ("3", "c2"); anything else is not passed to loginctl,
    /// where a leading "-" would read as an option.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.allSatisfy(sessionIDCharacters.contains)
    }

    private static let sessionIDCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

    /// The command that prints the session's hint as `yes` or `no`.
    static func lockedHintQuery(session: String) -> [String] {
        ["loginctl", "--no-pager", "show-session", session, "--property=LockedHint", "--value"]
    }

    /// `loginctl`'s `yes`/`no`; nil for anything else.
    static func lockedHint(in output: String) -> Bool? {
        switch output.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "yes": true
        case "no": false
        default: nil
        }
    }
}
