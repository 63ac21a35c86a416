import Foundation

/// Folds a run of the same log line into one count, so that a stranger who repeats a request (hellos during
/// the PIN back-off came at 3,474 lines a second) cannot flood the log. A value that returns what to write;
/// the clock is passed in (DESIGN.md#state-machines).
///
/// Lines are "the same" when level and message match; metadata may differ (a stranger could vary a name on
/// every hello), and the distinct values the folded lines carried are kept for the count's line, so that
/// addresses are not lost: `… repeated 12 more times: wrong PIN peer=10.0.0.7,10.0.0.9`.
public struct RepeatFolder: Sendable {
    /// One log record.
    public struct Line: Equatable, Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        public init(_ level: Logger.Level, _ message: String, _ metadata: [String: String] = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    /// Distinct values kept per metadata key on a count's line; more are summed up as "+N more".
    public static let valuesKept = 5

    /// How long after a line was written its repeats are only counted.
    public let window: Duration
    private var shown: (line: Line, at: ContinuousClock.Instant)?
    private var folded = 0
    private var values: [String: [String]] = [:]
    private var extraValues: [String: Int] = [:]

    public init(window: Duration) { self.window = window }

    /// What to write for `line` arriving at `now`: nothing while it repeats the line written last within the
    /// window; otherwise the count of the folded run (if any), then the line itself.
    public mutating func offer(_ line: Line, now: ContinuousClock.Instant) -> [Line] {
        if let shown, shown.line.level == line.level, shown.line.message == line.message, now - shown.at < window {
            fold(line.metadata)
            return []
        }
        var out = flush()
        out.append(line)
        shown = (line, now)
        return out
    }

    /// The count of the run folded so far, if any; the next line is written whatever it is.
    public mutating func flush() -> [Line] {
        defer {
            shown = nil
            folded = 0
            values = [:]
            extraValues = [:]
        }
        guard let shown, folded > 0 else { return [] }
        let times = folded == 1 ? "1 more time" : "\(folded) more times"
        return [Line(shown.line.level, "… repeated \(times): \(shown.line.message)", summary())]
    }

    private mutating func fold(_ metadata: [String: String]) {
        folded += 1
        for (key, value) in metadata where !(values[key]?.contains(value) ?? false) {
            if values[key, default: []].count < Self.valuesKept {
                values[key, default: []].append(value)
            } else {
                extraValues[key, default: 0] += 1
            }
        }
    }

    private func summary() -> [String: String] {
        values.reduce(into: [:]) { result, entry in
            let extra = extraValues[entry.key].map { ",+\($0) more" } ?? ""
            result[entry.key] = entry.value.joined(separator: ",") + extra
        }
    }
}

/// The folder a `Logger` shares between its copies. `@unchecked Sendable`: every use holds `lock`, which
/// also keeps lines in the order they were offered.
final class SharedRepeatFolder: @unchecked Sendable {
    private let lock = NSLock()
    private var folder: RepeatFolder
    private let clock: @Sendable () -> ContinuousClock.Instant

    init(window: Duration, clock: @escaping @Sendable () -> ContinuousClock.Instant) {
        folder = RepeatFolder(window: window)
        self.clock = clock
    }

    func write(_ line: RepeatFolder.Line, to sink: Logger.Sink) {
        lock.lock()
        defer { lock.unlock() }
        for out in folder.offer(line, now: clock()) { sink(out.level, out.message, out.metadata) }
    }

    func flush(to sink: Logger.Sink) {
        lock.lock()
        defer { lock.unlock() }
        for out in folder.flush() { sink(out.level, out.message, out.metadata) }
    }
}
