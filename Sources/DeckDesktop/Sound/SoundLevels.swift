import Synchronization

/// The seam to the levels sliders set besides the speakers' (issue 23, PROTOCOL §6 "Tiles and sliders"): the default
/// microphone's volume and one app's own volume (its sink inputs, found by `application.name`, again when the app
/// starts anew), followed wherever they change.
public struct SoundLevels: Sendable {
    /// What a slider moves.
    public enum Target: Hashable, Sendable {
        /// The sound server's default source.
        case microphone
        /// Every sink input whose `application.name` is this.
        case app(String)
    }

    /// A level 0…1, or why there is none.
    public enum Level: Equatable, Sendable {
        case level(Double)
        case unavailable(String)
    }

    /// The latest known level of `target`.
    public var current: @Sendable (Target) -> Level
    /// Sets `target` to `level` (0…1, every channel).
    public var set: @Sendable (Target, Double) async -> ActionResult
    /// Calls each time any level changed (a stream came, went or moved); for the host's one consumer.
    public var changes: AsyncStream<Void>

    public init(
        current: @escaping @Sendable (Target) -> Level, set: @escaping @Sendable (Target, Double) async -> ActionResult,
        changes: AsyncStream<Void>
    ) {
        self.current = current
        self.set = set
        self.changes = changes
    }

    /// What a slider says when its app plays nothing now.
    public static func notPlaying(_ app: String) -> String { "\(app) plays no sound now" }

    /// Levels kept in memory: `set` changes them (and reports a change), and so does the returned `outside`, as
    /// another program would; an app absent from `levels` plays nothing.
    public static func fake(_ levels: [Target: Double] = [.microphone: 1]) -> (
        levels: SoundLevels, outside: @Sendable (Target, Double?) -> Void
    ) {
        let state = Mutex(levels)
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let read: @Sendable (Target) -> Level = { target in
            if let level = state.withLock({ $0[target] }) { return .level(level) }
            if case .app(let name) = target { return .unavailable(notPlaying(name)) }
            return .unavailable("no microphone (the sound server has no input)")
        }
        let outside: @Sendable (Target, Double?) -> Void = { target, level in
            state.withLock { $0[target] = level }
            continuation.yield()
        }
        let set: @Sendable (Target, Double) async -> ActionResult = { target, level in
            if case .unavailable(let why) = read(target) { return .failed(why) }
            outside(target, level)
            return .ok
        }
        return (SoundLevels(current: read, set: set, changes: changes), outside)
    }

    /// No sound server: every target unavailable, nothing ever changes.
    public static let unavailable = SoundLevels(
        current: { _ in .unavailable("no sound server") }, set: { _, _ in .failed("no sound server") },
        changes: AsyncStream { $0.finish() })
}
