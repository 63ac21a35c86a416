import Foundation

/// A small leveled logger. The caller passes it in; data goes in metadata keys (`session.id`, `device.name`).
/// Secrets, PINs and typed text are never given to it.
public struct Logger: Sendable {
    /// Severity, lowest first.
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case debug, info, notice, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var name: String { "\(self)" }
    }

    /// Where records go.
    public typealias Sink = @Sendable (_ level: Level, _ message: String, _ metadata: [String: String]) -> Void

    public let minimum: Level
    private let sink: Sink
    private let repeats: SharedRepeatFolder?

    /// A logger that hands records at or above `minimum` to `sink`. With `foldRepeatsWithin`, a line that
    /// repeats the one before (same level and message) within that time is counted instead of written, and the
    /// count is written as `… repeated N more times: message` before the next different line (`RepeatFolder`).
    public init(
        minimum: Level = .info, foldRepeatsWithin window: Duration? = nil,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }, sink: @escaping Sink
    ) {
        self.minimum = minimum
        self.sink = sink
        repeats = window.map { SharedRepeatFolder(window: $0, clock: clock) }
    }

    /// How long the daemon's log folds repeats of a line.
    public static let repeatWindow: Duration = .seconds(10)

    /// Writes `touchdeck: [level] message key=value…` lines to stderr, folding repeats (`repeatWindow`).
    public static func standardError(minimum: Level = .info) -> Logger {
        Logger(minimum: minimum, foldRepeatsWithin: repeatWindow) { level, message, metadata in
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let line = "touchdeck: [\(level.name)] \(message)\(pairs.isEmpty ? "" : " " + pairs)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Drops everything.
    public static let silent = Logger(minimum: .error) { _, _, _ in }

    public func log(_ level: Level, _ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        guard level >= minimum else { return }
        guard let repeats else { return sink(level, message(), metadata) }
        repeats.write(RepeatFolder.Line(level, message(), metadata), to: sink)
    }

    /// Writes the count of a run of repeats still being folded (at shutdown, so that it is not lost).
    public func flushRepeats() { repeats?.flush(to: sink) }

    public func debug(_ m: @autoclosure () -> String, _ md: [String: String] = [:]) { log(.debug, m(), md) }
    public func info(_ m: @autoclosure () -> String, _ md: [String: String] = [:]) { log(.info, m(), md) }
    public func notice(_ m: @autoclosure () -> String, _ md: [String: String] = [:]) { log(.notice, m(), md) }
    public func warning(_ m: @autoclosure () -> String, _ md: [String: String] = [:]) { log(.warning, m(), md) }
    public func error(_ m: @autoclosure () -> String, _ md: [String: String] = [:]) { log(.error, m(), md) }
}
