import DeckDesktop
import Synchronization

extension SoundSource {
    /// A capture the test drives: `FakeSound.push` delivers a packet to every subscriber.
    public static func fake(_ sound: FakeSound) -> SoundSource {
        SoundSource(subscribe: { sound.subscribe($0, started: $1) })
    }
}

/// The test's side of `SoundSource.fake`: counts subscribers and pushes packets to them.
public final class FakeSound: Sendable {
    private let consumers = Mutex<[UInt64: SoundConsumer]>([:])
    private let serial = Mutex<UInt64>(0)
    private let failure: SoundError?

    /// Subscribers hear `failure` (nil: sound runs).
    public init(failure: SoundError? = nil) { self.failure = failure }

    /// How many consumers are subscribed.
    public var subscribers: Int { consumers.withLock { $0.count } }

    /// Hands `samples` (interleaved stereo) to every subscriber.
    public func push(_ samples: [Int16], captureMicros: UInt64 = 0) {
        for consumer in consumers.withLock({ Array($0.values) }) {
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
        let id = serial.withLock { value -> UInt64 in
            value += 1
            return value
        }
        consumers.withLock { $0[id] = consumer }
        started(nil)
        return SoundSubscription { [self] in self.consumers.withLock { $0[id] = nil } }
    }
}
