import Synchronization

/// The default input's mute as `micMute` keys show it (issue 23, PROTOCOL §6 "Live looks").
public struct MicState: Equatable, Sendable {
    /// Whether the default source is muted; meaningless while `unavailable` is set.
    public var muted: Bool
    /// Why there is no microphone to mute (no sound server, no default source); nil when there is one.
    public var unavailable: String?

    /// Creates a state.
    public init(muted: Bool, unavailable: String? = nil) {
        self.muted = muted
        self.unavailable = unavailable
    }

    /// No sound server.
    public static let noServer = MicState(muted: false, unavailable: "no sound server")
    /// A server without a default source.
    public static let noSource = MicState(muted: false, unavailable: "no microphone (the sound server has no input)")
}

/// The seam to the sound server's default input (DESIGN.md#seams): its mute, changed by `micMute` keys and
/// followed wherever it changes.
public struct MicControl: Sendable {
    /// The latest known state.
    public var current: @Sendable () -> MicState
    /// Mutes the default input, or unmutes it if muted.
    public var toggleMute: @Sendable () async -> ActionResult

    /// Creates a control from its operations.
    public init(current: @escaping @Sendable () -> MicState, toggleMute: @escaping @Sendable () async -> ActionResult) {
        self.current = current
        self.toggleMute = toggleMute
    }

    /// An in-memory input that starts at `initial` and reports changes to `onChange`, like the live one; `set`
    /// changes it as another program would.
    public static func fake(
        initial: MicState = MicState(muted: false), onChange: @escaping @Sendable (MicState) -> Void = { _ in }
    ) -> (control: MicControl, set: @Sendable (MicState) -> Void) {
        let state = Mutex(initial)
        let control = MicControl(
            current: { state.withLock { $0 } },
            toggleMute: {
                let (result, new) = state.withLock { value -> (ActionResult, MicState) in
                    if let reason = value.unavailable { return (.failed(reason), value) }
                    value.muted.toggle()
                    return (.ok, value)
                }
                if result == .ok { onChange(new) }
                return result
            })
        let set: @Sendable (MicState) -> Void = { new in
            state.withLock { $0 = new }
            onChange(new)
        }
        return (control, set)
    }

    /// No sound server, ever: for tests and desktops without one.
    public static let unavailable = MicControl(current: { .noServer }, toggleMute: { .failed("no sound server") })
}

/// Carries microphone changes from the sound server's thread to the host's actor in order; only the newest few
/// wait if the host falls behind.
public struct MicFeed: Sendable {
    /// The changes, for the host's one consumer.
    public let changes: AsyncStream<MicState>
    private let continuation: AsyncStream<MicState>.Continuation

    /// An empty feed.
    public init() {
        (changes, continuation) = AsyncStream.makeStream(of: MicState.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// Hands a new state to the host; returns at once (it runs on libpulse's thread).
    public var report: @Sendable (MicState) -> Void {
        let continuation = self.continuation
        return { continuation.yield($0) }
    }

    /// Ends the stream.
    public func finish() { continuation.finish() }
}
