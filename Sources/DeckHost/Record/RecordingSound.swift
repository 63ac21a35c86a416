import DeckDesktop
import DeckRecord
import DeckSound
import Foundation

/// A recording's sound: one consumer of the shared sound capture, handing each packet to `Recorder.append`.
/// It joins before the recorder opens, because the file's tracks are fixed when it is created (an AAC track
/// only when sound runs); packets that arrive before the recorder is attached are dropped.
final class RecordingSound: @unchecked Sendable {
    // Guarded by `lock`: packets arrive on the capture's thread, attach and leave come from the actor's tasks.
    private let lock = NSLock()
    private var recorder: Recorder?
    private var subscription: SoundSubscription?

    /// Joins `source` and waits until it says whether sound runs: nil means the file gets a sound track.
    static func join(_ source: SoundSource) async -> (RecordingSound, SoundError?) {
        let sound = RecordingSound()
        let error: SoundError? = await withCheckedContinuation { continuation in
            sound.subscribe(to: source) { continuation.resume(returning: $0) }
        }
        if error != nil { sound.leave() }
        return (sound, error)
    }

    /// Subscribes to `source` without waiting: `started` is called once, possibly before this returns, with nil
    /// when sound runs (the actor subscribes here, in order with every leave, and hears the answer as an event).
    func subscribe(to source: SoundSource, started: @escaping @Sendable (SoundError?) -> Void) {
        let subscription = source.subscribe({ [weak self] samples, micros in self?.deliver(samples, micros) }, started)
        lock.withLock { self.subscription = subscription }
    }

    /// From now on packets go to `recorder`.
    func attach(_ recorder: Recorder) { lock.withLock { self.recorder = recorder } }

    /// Leaves the capture (the last consumer out restores the speakers). Idempotent.
    func leave() {
        let leaving: SoundSubscription? = lock.withLock {
            defer {
                subscription = nil
                recorder = nil
            }
            return subscription
        }
        leaving?.cancel()
    }

    private func deliver(_ samples: UnsafeBufferPointer<Int16>, _ micros: UInt64) {
        lock.withLock { recorder }?.append(samples: samples, captureMicros: micros)
    }
}
