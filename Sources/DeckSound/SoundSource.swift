/// The seam between a consumer of the computer's sound (screen viewing, recording) and the capture
/// (STYLE practice 1): subscribe with a consumer, hear whether sound started, cancel to leave.
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

    /// The live capture: libpulse (PulseAudio or PipeWire's pulse server), routing through our null sink.
    public static func live(_ capture: SoundCapture) -> SoundSource {
        SoundSource(
            subscribe: { capture.subscribe($0, started: $1) }, speakers: { capture.speakers },
            settle: { capture.settle() })
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

    /// A capture the test drives: `FakeSound.push` delivers a packet to every subscriber.
    public static func fake(_ sound: FakeSound) -> SoundSource {
        SoundSource(subscribe: { sound.subscribe($0, started: $1) })
    }
}

/// The test's side of `SoundSource.fake`: counts subscribers and pushes packets to them.
public final class FakeSound: Sendable {
    private let consumers = LockedValue<[UInt64: SoundConsumer]>([:])
    private let serial = LockedValue<UInt64>(0)
    private let failure: SoundError?

    /// Subscribers hear `failure` (nil: sound runs).
    public init(failure: SoundError? = nil) { self.failure = failure }

    /// How many consumers are subscribed.
    public var subscribers: Int { consumers.get().count }

    /// Hands `samples` (interleaved stereo) to every subscriber.
    public func push(_ samples: [Int16], captureMicros: UInt64 = 0) {
        for consumer in consumers.get().values {
            samples.withUnsafeBufferPointer { consumer($0, captureMicros) }
        }
    }

    func subscribe(_ consumer: @escaping SoundConsumer, started: @escaping @Sendable (SoundError?) -> Void)
        -> SoundSubscription
    {
        if let failure {
            started(failure)
            return SoundSubscription {}
        }
        let id = serial.update { value -> UInt64 in
            value += 1
            return value
        }
        consumers.update { $0[id] = consumer }
        started(nil)
        return SoundSubscription { [consumers] in consumers.update { $0[id] = nil } }
    }
}
