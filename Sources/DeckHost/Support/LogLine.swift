import DeckLog

/// A log line a state machine asks the actor to write: the machine decides what happened, the actor owns the
/// `Logger` (a machine stays a value that tests compare).
struct LogLine: Equatable, Sendable {
    var level: Logger.Level
    var message: String
    var metadata: [String: String] = [:]
}

extension Logger {
    /// Writes a line a machine returned.
    func write(_ line: LogLine) { log(line.level, line.message, line.metadata) }
}
