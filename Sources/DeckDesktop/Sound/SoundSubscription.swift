import Synchronization

/// A consumer's place in the capture; `cancel` leaves it (the last one out restores the speakers).
public final class SoundSubscription: Sendable {
    private let leave: Mutex<(@Sendable () -> Void)?>

    /// `leave` runs once, on the first `cancel()`.
    public init(_ leave: @escaping @Sendable () -> Void) { self.leave = Mutex(leave) }

    /// Leaves the capture; returns at once, idempotent. No packet reaches the consumer once the leave has
    /// been handled on the sound queue.
    public func cancel() {
        let leaving = leave.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        leaving?()
    }
}

/// Why sound could not start or be restored.
public enum SoundError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No sound server answers.
    case noServer
    /// The server refused a command (what was asked, the server's words).
    case refused(String)
    /// There is no sink to route away from.
    case noDefaultSink
    /// The routing record could not be written, so routing did not start (it could not be undone after a crash).
    case record(String)

    public var description: String {
        switch self {
        case .noServer: "no sound server"
        case .refused(let what): "the sound server refused: \(what)"
        case .noDefaultSink: "the sound server has no default sink"
        case .record(let why): "the routing record could not be written: \(why)"
        }
    }
}
