/// The seam that tells screen viewing whether the desktop is locked or its screensaver is on (DESIGN.md#viewing: then
/// viewing is refused with `locked`, and stops at once while someone views; the host asks every second).
///
/// Each back-end answers on its own queue, never on the caller's actor; a back-end that cannot tell (no
/// display, no logind session, a command that fails) answers "not locked" — the screen source itself then
/// reports what is wrong with the desktop.
public struct LockProbe: Sendable {
    /// What is asked, for the log: "x11 :0", "logind session 3", "x11 $DISPLAY or logind session 3".
    public var name: String
    /// Whether the desktop is locked (or its screensaver is on) now.
    public var isLocked: @Sendable () async -> Bool

    /// A probe from its one operation.
    public init(name: String, isLocked: @escaping @Sendable () async -> Bool) {
        self.name = name
        self.isLocked = isLocked
    }

    /// The `LockedHint` logind keeps for `session` (nil: outside a logind session, never locked), read with
    /// `loginctl` through `command`. Desktops that lock themselves (GNOME, KDE, Cinnamon) set the hint.
    public static func logind(session: String? = LogindSession.current(), command: QueryCommand = .live())
        -> LockProbe
    {
        guard let session, LogindSession.isValid(session) else {
            return LockProbe(name: "logind (not in a session)") { false }
        }
        return LockProbe(name: "logind session \(session)") {
            guard let output = await command.run(LogindSession.lockedHintQuery(session: session)) else { return false }
            return LogindSession.lockedHint(in: output) ?? false
        }
    }

    /// Locked when any of `probes` says so; they are asked in order until one does.
    public static func either(_ probes: [LockProbe]) -> LockProbe {
        LockProbe(name: probes.map(\.name).joined(separator: " or ")) {
            for probe in probes {
                if await probe.isLocked() { return true }
            }
            return false
        }
    }

    /// Answers what `locked` says at each call; the test changes it (and may count calls there).
    public static func fake(locked: @escaping @Sendable () -> Bool) -> LockProbe {
        LockProbe(name: "fake") { locked() }
    }

    /// Never locked: for hosts and tests that do not care.
    public static let unlocked = LockProbe(name: "unlocked") { false }

    /// Traps if called: for tests that must never ask.
    public static let unimplemented = LockProbe(name: "unimplemented") {
        preconditionFailure("LockProbe.isLocked called in a test that does not expect it")
    }
}
