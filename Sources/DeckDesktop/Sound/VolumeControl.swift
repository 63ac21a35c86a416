import Synchronization

/// The default output's volume as devices see it (the `volume` message).
public struct VolumeState: Equatable, Sendable {
    /// False when no sound server (or no output) is reachable.
    public var available: Bool
    /// 0…1, the average of the channels (volumes boosted above 100 % read as 1).
    public var level: Double
    /// Whether the output is muted.
    public var muted: Bool

    /// Creates a state.
    public init(available: Bool, level: Double, muted: Bool) {
        self.available = available
        self.level = level
        self.muted = muted
    }

    /// No sound server.
    public static let unavailable = VolumeState(available: false, level: 0, muted: false)
}

/// The seam to the sound server's default output (DESIGN.md#seams).
public struct VolumeControl: Sendable {
    /// The latest known state.
    public var current: @Sendable () -> VolumeState
    /// Sets every channel of the default output to `level` (0…1).
    public var setLevel: @Sendable (_ level: Double) async -> ActionResult
    /// Mutes the default output, or unmutes it if muted.
    public var toggleMute: @Sendable () async -> ActionResult

    /// Creates a control from its operations.
    public init(
        current: @escaping @Sendable () -> VolumeState,
        setLevel: @escaping @Sendable (_ level: Double) async -> ActionResult,
        toggleMute: @escaping @Sendable () async -> ActionResult
    ) {
        self.current = current
        self.setLevel = setLevel
        self.toggleMute = toggleMute
    }

    /// An in-memory output that starts at `initial` and reports changes to `onChange`, like the live one.
    public static func fake(
        initial: VolumeState = VolumeState(available: true, level: 0.5, muted: false),
        onChange: @escaping @Sendable (VolumeState) -> Void = { _ in }
    ) -> VolumeControl {
        let state = Mutex(initial)
        let update = { @Sendable (change: (inout VolumeState) -> Void) -> ActionResult in
            let (result, new) = state.withLock { value -> (ActionResult, VolumeState) in
                guard value.available else { return (.failed("no sound server"), value) }
                change(&value)
                return (.ok, value)
            }
            if result == .ok { onChange(new) }
            return result
        }
        return VolumeControl(
            current: { state.withLock { $0 } },
            setLevel: { level in update { $0.level = min(max(level, 0), 1) } },
            toggleMute: { update { $0.muted.toggle() } })
    }

    /// Traps if called: for tests that must never touch the volume.
    public static let unimplemented = VolumeControl(
        current: { preconditionFailure("VolumeControl.current called in a test that does not expect it") },
        setLevel: { _ in preconditionFailure("VolumeControl.setLevel called in a test that does not expect it") },
        toggleMute: { preconditionFailure("VolumeControl.toggleMute called in a test that does not expect it") })
}
