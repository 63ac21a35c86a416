/// The seam between a consumer of the computer's sound (screen viewing, recording) and the capture
/// (DESIGN.md#seams): subscribe with a consumer, hear whether sound started, cancel to leave.
public struct SoundSource: Sendable {
    /// Adds a consumer. `started` is called once, off the caller's thread: nil when sound runs, or why not.
    public var subscribe:
        @Sendable (_ consumer: @escaping SoundConsumer, _ started: @escaping @Sendable (SoundError?) -> Void) ->
            SoundSubscription
    /// The speakers' sink while the sound is routed away from them (nil otherwise): what the volume gauge shows.
    public var speakers: @Sendable () -> String?
    /// Blocks until every start and stop asked so far is done (the host waits for it before it exits).
    public var settle: @Sendable () -> Void

    public init(
        subscribe:
            @escaping @Sendable (
                _ consumer: @escaping SoundConsumer, _ started: @escaping @Sendable (SoundError?) -> Void
            ) -> SoundSubscription,
        speakers: @escaping @Sendable () -> String? = { nil }, settle: @escaping @Sendable () -> Void = {}
    ) {
        self.subscribe = subscribe
        self.speakers = speakers
        self.settle = settle
    }

    /// No sound server: every subscriber hears `noServer`.
    public static let none = SoundSource(subscribe: { _, started in
        started(.noServer)
        return SoundSubscription {}
    })

    /// Traps if called: for tests that must never reach sound.
    public static let unimplemented = SoundSource(subscribe: { _, _ in
        preconditionFailure("SoundSource.subscribe called in a test that does not expect it")
    })
}
