import DeckDesktop
import DeckKit
import DeckSound
import Foundation

/// One viewer's sound: a consumer of the shared `SoundCapture` that wraps each 10 ms packet as an
/// `AudioPacket` (`[2][channels][rate BE32][samples LE]`), seals it and sends it, on the capture's thread.
/// At most `maxInFlight` packets are in flight (queued but not yet written to the socket); a packet beyond
/// that is dropped, so a slow reader hears gaps, never a growing delay, and the host's memory stays bounded.
final class AudioStream: @unchecked Sendable {
    /// The seed's bound: 10 packets, 100 ms of sound.
    static let maxInFlight = 10

    private let send: MediaSend
    /// Guarded by `lock`.
    private var inFlight = 0
    private var sent = 0
    private var dropped = 0
    private var stopped = false
    private let lock = NSLock()
    private var subscription: SoundSubscription?

    /// Subscribes to `source`; `started` hears (off the caller) whether sound runs. `send` seals and hands one
    /// packet to the transport, calling its second argument once the packet has left.
    init(
        source: SoundSource, send: @escaping MediaSend,
        started: @escaping @Sendable (SoundError?) -> Void
    ) {
        self.send = send
        let subscription = source.subscribe({ [weak self] samples, _ in self?.packet(samples) }, started)
        lock.withLock { self.subscription = subscription }
    }

    /// Leaves the capture (the last consumer out restores the speakers). Returns at once; idempotent.
    func stop() {
        let leaving: SoundSubscription? = lock.withLock {
            stopped = true
            defer { subscription = nil }
            return subscription
        }
        leaving?.cancel()
    }

    /// Packets sent and dropped so far.
    var counts: (sent: Int, dropped: Int) { lock.withLock { (sent, dropped) } }

    // MARK: On the capture's thread

    private func packet(_ samples: UnsafeBufferPointer<Int16>) {
        let admitted = lock.withLock {
            guard !stopped else { return false }
            guard inFlight < Self.maxInFlight else {
                dropped += 1
                return false
            }
            inFlight += 1
            sent += 1
            return true
        }
        guard admitted else { return }
        let message = AudioPacket.wireMessage(
            channels: UInt8(SoundFormat.channels), sampleRate: UInt32(SoundFormat.rate), samples: samples)
        send(consume message) { [weak self] in self?.left() }
    }

    private func left() { lock.withLock { inFlight -= 1 } }
}
