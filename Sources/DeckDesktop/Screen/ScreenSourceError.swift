/// Why a screen source could not answer.
public enum ScreenSourceError: Error, Equatable, Sendable {
    /// There is no desktop to capture (no `$DISPLAY`, the X server refused us, no screen-cast session).
    case noDisplay
    /// The monitor is gone (unplugged, or the layout changed since it was listed).
    case noSuchMonitor
    /// The desktop answered, but with no picture; the text says what went wrong, for the log.
    case captureFailed(String)
}
