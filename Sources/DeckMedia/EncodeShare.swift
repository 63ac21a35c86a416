import DeckDesktop
import DeckKit
import Foundation

/// Where a viewer's encode is offered to a recording of the same picture (DESIGN.md#recording, "one encode").
///
/// A viewer's stream that encodes with x264 offers its output (`offer`) under the key of what it encodes: the
/// monitor, the encoded size and the rate. A recording joins under its own key (`join`); when the keys match,
/// the recording is attached to that stream and takes its frames instead of encoding the same pictures again.
/// When the stream stops or changes its rate, the recording is detached and encodes by itself again.
///
/// At most one recording per key is attached, to at most one stream. Attaching and detaching are told to the
/// tap outside `lock`, so a tap may call back in.
public final class EncodeShare: @unchecked Sendable {
    /// What an encode produces: the same key means the same frames would come out of both encoders.
    public struct Key: Hashable, Sendable {
        public var monitor: Monitor
        public var size: PixelSize
        public var fps: Int

        public init(monitor: Monitor, size: PixelSize, fps: Int) {
            self.monitor = monitor
            self.size = size
            self.fps = fps
        }
    }

    private let lock = NSLock()
    /// Guarded by `lock`: the streams on offer, and the taps (with the key each wants).
    private var outlets: [ObjectIdentifier: (key: Key, outlet: EncodeOutlet)] = [:]
    private var taps: [ObjectIdentifier: (key: Key, tap: any EncodeTap)] = [:]

    public init() {}

    /// A viewer's stream offers what it encodes under `key`; it asks the outlet for its tap before each frame.
    public func offer(_ key: Key) -> EncodeOutlet {
        let outlet = EncodeOutlet(share: self)
        let attached: (any EncodeTap)? = lock.withLock {
            outlets[ObjectIdentifier(outlet)] = (key, outlet)
            return pair(outlet: outlet, key: key)
        }
        attached?.attached()
        return outlet
    }

    /// A recording wants frames of `key`; it is told `attached()` at once or when such a stream comes.
    public func join(_ key: Key, tap: any EncodeTap) {
        let outlet: EncodeOutlet? = lock.withLock {
            taps[ObjectIdentifier(tap)] = (key, tap)
            guard let free = outlets.values.first(where: { $0.key == key && $0.outlet.tapped == nil }) else {
                return nil
            }
            free.outlet.tapped = tap
            return free.outlet
        }
        if outlet != nil { tap.attached() }
    }

    /// The recording ends: it is no longer fed (and not told so: it asked).
    public func leave(_ tap: any EncodeTap) {
        lock.withLock {
            taps[ObjectIdentifier(tap)] = nil
            for entry in outlets.values where entry.outlet.tapped === tap { entry.outlet.tapped = nil }
        }
    }

    /// The stream now encodes under `key` (its rate changed); a tap that wanted the old key is detached.
    func move(_ outlet: EncodeOutlet, to key: Key) {
        let (gone, came): ((any EncodeTap)?, (any EncodeTap)?) = lock.withLock {
            guard outlets[ObjectIdentifier(outlet)]?.key != key else { return (nil, nil) }
            outlets[ObjectIdentifier(outlet)] = (key, outlet)
            let old = outlet.tapped
            outlet.tapped = nil
            return (old, pair(outlet: outlet, key: key))
        }
        gone?.detached()
        came?.attached()
    }

    /// The stream stops: its tap (if any) encodes by itself again, or joins another stream of its key.
    func withdraw(_ outlet: EncodeOutlet) {
        let (gone, other): ((any EncodeTap)?, EncodeOutlet?) = lock.withLock {
            outlets[ObjectIdentifier(outlet)] = nil
            guard let old = outlet.tapped else { return (nil, nil) }
            outlet.tapped = nil
            let key = taps[ObjectIdentifier(old)]?.key
            let next = outlets.values.first { $0.key == key && $0.outlet.tapped == nil }?.outlet
            next?.tapped = old
            return (old, next)
        }
        // A second stream of the same picture takes over: the tap waits for that one's keyframe instead.
        if other != nil { gone?.attached() } else { gone?.detached() }
    }

    /// A waiting tap of `key` for a fresh outlet (under `lock`).
    private func pair(outlet: EncodeOutlet, key: Key) -> (any EncodeTap)? {
        let attachedTaps = Set(outlets.values.compactMap { $0.outlet.tapped.map(ObjectIdentifier.init) })
        let waiting = taps.values.first { $0.key == key && !attachedTaps.contains(ObjectIdentifier($0.tap)) }
        guard let waiting else { return nil }
        outlet.tapped = waiting.tap
        return waiting.tap
    }

    /// The tap of `outlet` now.
    fileprivate func tap(of outlet: EncodeOutlet) -> (any EncodeTap)? { lock.withLock { outlet.tapped } }
}

/// One stream's place in the share: it asks for its tap before each frame, and withdraws when it stops.
public final class EncodeOutlet: @unchecked Sendable {
    private weak var share: EncodeShare?
    /// Guarded by the share's lock.
    fileprivate(set) var tapped: (any EncodeTap)?

    fileprivate init(share: EncodeShare) { self.share = share }

    /// The recording fed by this stream now, if any.
    public var tap: (any EncodeTap)? { share?.tap(of: self) }

    /// The stream's rate or size changed.
    public func move(to key: EncodeShare.Key) { share?.move(self, to: key) }

    /// The stream stopped. Idempotent.
    public func withdraw() { share?.withdraw(self) }
}

/// A recording fed by a viewer's encoder. Called on the viewer's capture thread, except `attached` and
/// `detached`, which come from whoever paired or unpaired it.
public protocol EncodeTap: AnyObject, Sendable {
    /// Before a frame captured at `micros` is encoded: whether the recording needs it to be a keyframe.
    func wantsKeyframe(at micros: UInt64) -> Bool
    /// The encoded frame of the picture captured at `micros`, every one while attached (also those the viewer
    /// could not send).
    func take(_ frame: EncodedFrame, capturedAt micros: UInt64)
    /// From now on the frames come through `take` (the first one the tap uses is a keyframe).
    func attached()
    /// No more frames come through `take`: the recording encodes by itself again.
    func detached()
}
