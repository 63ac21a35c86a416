import DeckCrypto
import DeckLog
import Foundation

/// `pairing-backoff.json` in the config dir (mode 0600): the PIN gate's dead-PIN count and the end of its
/// back-off, so that restarting the host does not lift a back-off a stranger earned.
///
/// On disk the end is wall-clock time (a monotonic instant means nothing to the next process); in memory it is
/// a `ContinuousClock` instant (a clock set back must not shorten a running wait). Converting on load clamps the
/// wait to the gate's longest, so a wall clock that jumped cannot block pairing for longer than that.
public struct PairingBackoffFile: Sendable {
    /// The file's name in the config dir.
    public static let name = "pairing-backoff.json"

    let url: URL
    private let wallClock: @Sendable () -> Date
    private let clock: @Sendable () -> ContinuousClock.Instant

    private struct Stored: Codable, Equatable {
        var deadPins: Int
        var blockedUntil: Date?
    }

    /// The file in `directory`, converting with the two clocks given.
    public init(
        directory: URL, wallClock: @escaping @Sendable () -> Date = Date.init,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        url = directory.appendingPathComponent(Self.name)
        self.wallClock = wallClock
        self.clock = clock
    }

    /// The saved back-off; none when the file is absent. A file that cannot be read is reported and ignored
    /// (it holds no user data, and the next dead PIN writes a good one).
    public func load(log: Logger) -> PairingGate.Backoff {
        guard FileManager.default.fileExists(atPath: url.path) else { return PairingGate.Backoff() }
        guard let data = try? Data(contentsOf: url),
            let stored = try? ConfigStore.decoder.decode(Stored.self, from: data)
        else {
            log.warning("\(Self.name) could not be read; starting without a pairing back-off")
            return PairingGate.Backoff()
        }
        return PairingGate.Backoff(
            deadPins: max(stored.deadPins, 0), blockedUntil: stored.blockedUntil.flatMap(instant))
    }

    /// Saves `backoff` atomically (temp file, fsync, rename), mode 0600.
    public func save(_ backoff: PairingGate.Backoff) throws {
        let until = backoff.blockedUntil.map { wallClock().addingTimeInterval(Self.seconds($0 - clock())) }
        let data = try ConfigStore.encoder.encode(Stored(deadPins: backoff.deadPins, blockedUntil: until))
        try AtomicFile.write(data, to: url, mode: 0o600)
    }

    /// The monotonic instant of a wall-clock end; nil once it has passed.
    private func instant(_ until: Date) -> ContinuousClock.Instant? {
        let left = min(until.timeIntervalSince(wallClock()), Self.seconds(PairingGate.maxBackoff))
        guard left > 0 else { return nil }
        return clock() + .milliseconds(Int64((left * 1000).rounded(.up)))
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
