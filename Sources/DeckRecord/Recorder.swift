import DeckDesktop
import DeckKit
import DeckLog
import DeckMedia
import Foundation

/// One recording (DESIGN.md#recording): a monitor's frames and, when given, the system sound, encoded by its own H.264
/// and AAC encoders and written as fragmented MP4 on its own queue.
///
/// Frames come from the capture (shared with a viewer of the same monitor, `ScreenSource.sharingCaptures`):
/// on the capture thread a frame is only copied into a pooled buffer (dropped when none is free), so a
/// recording never slows the viewer down. Sound comes through `append(samples:captureMicros:)`. Both are placed
/// on the file's clock by `RecordingTimeline`: a pause leaves no gap.
///
/// While a viewer's stream encodes the same picture (monitor, size and rate) with x264, the recording takes that
/// stream's frames instead of encoding its own (`EncodeShare`, DESIGN.md#recording): its own encoder idles and
/// its capture's frames are not even copied; when the stream goes, it encodes by itself again from a keyframe.
///
/// Whatever ends it by itself (the capture, an encoder, a full disk) is reported once through `failed`; the
/// owner then calls `stop()`, the one way a recording ends, which writes the last fragment and closes the file.
public final class Recorder: @unchecked Sendable {
    /// What to record.
    public struct Options: Sendable {
        public var monitor: Monitor
        /// The long side of the video; nil: the monitor's own size.
        public var maxSide: Int?
        public var fps: Int
        public var encoder: EncoderChoice
        /// Whether the file has a sound track (fed through `append(samples:captureMicros:)`).
        public var sound: Bool
        /// The file to create; it must not exist.
        public var url: URL
        /// Free space below this many bytes stops the recording before the disk is full.
        public var reserveBytes: Int64

        public init(
            monitor: Monitor, maxSide: Int? = nil, fps: Int, encoder: EncoderChoice = .x264, sound: Bool,
            url: URL, reserveBytes: Int64 = 4 << 20
        ) {
            self.monitor = monitor
            self.maxSide = maxSide
            self.fps = fps
            self.encoder = encoder
            self.sound = sound
            self.url = url
            self.reserveBytes = reserveBytes
        }
    }

    /// What a finished recording left on disk.
    public struct Summary: Sendable, Equatable {
        public var url: URL
        /// Length of the file's timeline in microseconds (pauses left out).
        public var durationMicros: UInt64
        public var bytes: Int64
        /// Nil when it ended cleanly.
        public var error: RecordingError?
    }

    public let options: Options
    /// The encoded video size.
    public let size: PixelSize
    public let fps: Int

    private let queue = DispatchQueue(label: "touchdeck.record", qos: .userInitiated)
    private let pool: FramePool
    private let failed: @Sendable (RecordingError) -> Void
    /// Microseconds on the capture clock (`CapturedFrame.capturedAt`'s); tests pass their own.
    private let clock: @Sendable () -> UInt64
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var timeline: RecordingTimeline
    private var capture: (any ScreenCapture)?
    private var stopped = false
    private var failure: RecordingError?
    private var lastFrameAt: UInt64 = 0
    /// Whether a picture is in the file yet.
    private var hadPicture = false
    /// The file's keyframes, one every second of its time (a killed host loses at most that much).
    private var keyframes: KeyframeClock
    private var pendingSound = 0
    /// Fed by a viewer's encoder (`EncodeTap`): own frames are ignored; until `waitingForKeyframe` is false, fed
    /// frames are too. Fed frames queued for the sink, bounded like the pool.
    private var fed = false
    private var waitingForKeyframe = false
    private var pendingFed = 0
    private let share: EncodeShare?
    /// Only on `queue`.
    private let sink: RecordingSink
    private var keepAlive: DispatchSourceTimer?

    /// Creates the file, opens the encoders and starts capturing; `clock` gives microseconds on the capture's
    /// clock. Throws a `RecordingError` or the capture's
    /// `ScreenSourceError` when it cannot start; nothing is left on disk then.
    public init(
        _ options: Options, capture start: StartCapture, log: Logger, share: EncodeShare? = nil,
        clock: @escaping @Sendable () -> UInt64 = CapturedFrame.now,
        failed: @escaping @Sendable (RecordingError) -> Void
    ) throws {
        self.clock = clock
        self.options = options
        fps = StreamRate.normalize(fps: options.fps)
        keyframes = KeyframeClock(intervalMicros: Self.keyframeMicros, slackMicros: Self.keyframeLeadMicros)
        let frame = options.monitor.frame
        let maxSide = options.maxSide ?? max(frame.width, frame.height)
        sink = try RecordingSink(
            url: options.url, sourceWidth: frame.width, sourceHeight: frame.height, maxSide: maxSide, fps: fps,
            encoder: options.encoder, sound: options.sound, reserveBytes: options.reserveBytes, log: log)
        size = sink.size
        pool = FramePool(count: 3, bytes: frame.width * frame.height * 4)
        self.failed = failed
        // A viewer's x264 stream can feed only an x264 recording.
        self.share = options.encoder == .x264 ? share : nil
        let now = clock()
        timeline = RecordingTimeline(start: now)
        lastFrameAt = now
        let handlers = CaptureHandlers(
            frame: { [weak self] frame in self?.frame(frame) },
            ended: { [weak self] error in self?.fail(.capture("\(error)")) })
        do {
            let capture = try start(options.monitor, fps, handlers)
            lock.withLock { self.capture = capture }
        } catch {
            sink.abandon()
            throw error
        }
        startKeepAlive()
        self.share?.join(EncodeShare.Key(monitor: options.monitor, size: size, fps: fps), tap: self)
    }

    /// Whether it is paused now.
    public var isPaused: Bool { lock.withLock { timeline.isPaused } }

    /// Microseconds recorded so far (pauses left out).
    public var elapsedMicros: UInt64 { lock.withLock { timeline.elapsed(at: self.clock()) } }

    /// Pauses: frames and sound are dropped until `resume()`. False if already paused or stopped.
    @discardableResult
    public func pause() -> Bool {
        lock.withLock { !stopped && timeline.pause(at: self.clock()) }
    }

    /// Resumes where the file left off; the next frame is a keyframe. False if not paused or stopped.
    @discardableResult
    public func resume() -> Bool {
        let capture: (any ScreenCapture)? = lock.withLock {
            guard !stopped, timeline.resume(at: self.clock()) else { return nil }
            if fed { waitingForKeyframe = true }
            return self.capture
        }
        guard let capture else { return false }
        queue.async { self.sink.resumed() }
        capture.refresh()
        return true
    }

    /// Sound captured at `captureMicros` (the first sample), interleaved s16le stereo at 48 kHz. Called on the
    /// sound source's thread; copied and encoded on the recording's queue. Ignored without a sound track.
    public func append(samples: UnsafeBufferPointer<Int16>, captureMicros: UInt64) {
        guard options.sound else { return }
        let fileTime: UInt64? = lock.withLock {
            // A stalled encoder must not let sound pile up without bound: about 2 s of blocks at most.
            guard !stopped, pendingSound < 200 else { return nil }
            guard let time = timeline.fileTime(of: captureMicros) else { return nil }
            pendingSound += 1
            return time
        }
        guard let fileTime else { return }
        let copy = Array(samples)
        queue.async {
            self.lock.withLock { self.pendingSound -= 1 }
            copy.withUnsafeBufferPointer { samples in self.run { try self.sink.sound(samples, micros: fileTime) } }
        }
    }

    /// Ends the recording: stops the capture, writes the last fragment and closes the file. Blocks until the
    /// file is closed (not for the actor: call it off it). Idempotent: later calls return the same summary.
    @discardableResult
    public func stop() -> Summary {
        finalPicture()
        let capture: (any ScreenCapture)? = lock.withLock {
            stopped = true
            defer { self.capture = nil }
            return self.capture
        }
        share?.leave(self)
        capture?.stop()
        return queue.sync {
            keepAlive?.cancel()
            keepAlive = nil
            let closing = sink.finish()
            let error = lock.withLock { failure ?? closing }
            let duration = lock.withLock { timeline.elapsed(at: self.clock()) }
            return Summary(url: options.url, durationMicros: duration, bytes: sink.bytes, error: error)
        }
    }

    /// A still screen's last frame may be up to the keep-alive's half second old: the file would end there, short
    /// of the stop. So the capture is asked for the picture once more, and the stop waits for it (250 ms at most).
    private func finalPicture() {
        let (capture, asked): ((any ScreenCapture)?, UInt64) = lock.withLock {
            (stopped || timeline.isPaused ? nil : self.capture, clock())
        }
        guard let capture else { return }
        capture.refresh()
        for _ in 0..<50 where lock.withLock({ lastFrameAt < asked && !stopped }) { usleep(5_000) }
    }

    // MARK: - On the capture thread

    /// Microseconds of the file between two keyframes at most.
    static let keyframeMicros: UInt64 = 1_000_000
    /// How early a keyframe may come: its picture is asked for that much before the second is over, so the
    /// fragment it closes reaches the disk within the second, not a keep-alive tick and a frame slot after it
    /// (a kill just after a whole second then still has that second).
    static let keyframeLeadMicros: UInt64 = 100_000

    private func frame(_ frame: CapturedFrame) {
        let fileTime: UInt64? = lock.withLock {
            // Fed by a viewer's encoder, which sees the same pictures: nothing to copy or encode here.
            guard !stopped, !fed else { return nil }
            lastFrameAt = frame.capturedAt
            guard let time = timeline.fileTime(of: frame.capturedAt) else { return nil }
            // The file starts when the recording does: a capture whose first picture comes late (Mutter's, a
            // moment after its session starts; 1.5 s on a loaded machine) shows that picture from the start,
            // rather than a file short by the wait.
            defer { hadPicture = true }
            return hadPicture ? time : 0
        }
        guard let fileTime, let buffer = pool.copy(frame) else { return }
        let keyframe: Bool = lock.withLock {
            guard keyframes.isDue(at: fileTime) else { return false }
            keyframes.keyframe(at: fileTime)
            return true
        }
        queue.async {
            defer { self.pool.giveBack(buffer) }
            self.run { try self.sink.video(buffer, micros: fileTime, keyframe: keyframe) }
        }
    }

    // MARK: - On the queue

    /// Runs one step of the sink; its first error ends the recording.
    private func run(_ step: () throws -> Void) {
        guard lock.withLock({ failure == nil }) else { return }
        do { try step() } catch let error as RecordingError { fail(error) } catch { fail(.encoder("\(error)")) }
    }

    private func fail(_ error: RecordingError) {
        let first: Bool = lock.withLock {
            guard failure == nil, !stopped else { return false }
            failure = error
            return true
        }
        if first { failed(error) }
    }

    /// A still screen gives the capture no frame; the file still needs pictures (and a keyframe every second,
    /// each closing a fragment on disk) as time goes on, so the capture is asked for one after half a second
    /// without a frame and whenever a keyframe is due.
    private func startKeepAlive() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let capture: (any ScreenCapture)? = self.lock.withLock {
                let now = self.clock()
                guard !self.stopped, !self.timeline.isPaused, now > self.lastFrameAt + 40_000 else { return nil }
                let quiet = now > self.lastFrameAt + 500_000
                let due =
                    self.timeline.fileTime(of: now).map { self.keyframes.isDue(at: $0) || self.waitingForKeyframe }
                    ?? false
                return quiet || due ? self.capture : nil
            }
            capture?.refresh()
        }
        keepAlive = timer
        timer.resume()
    }
}

// MARK: - Fed by a viewer's encoder

extension Recorder: EncodeTap {
    public func wantsKeyframe(at micros: UInt64) -> Bool {
        lock.withLock {
            guard fed, !stopped, let time = timeline.fileTime(of: micros) else { return false }
            return waitingForKeyframe || !hadPicture || keyframes.isDue(at: time)
        }
    }

    public func take(_ frame: EncodedFrame, capturedAt micros: UInt64) {
        guard frame.width == size.width, frame.height == size.height else { return goOwnWay() }
        let fileTime: UInt64? = lock.withLock {
            guard fed, !stopped else { return nil }
            lastFrameAt = micros
            guard let time = timeline.fileTime(of: micros) else { return nil }
            // A frame the queue has no room for breaks the chain of pictures: wait for the next keyframe.
            guard pendingFed < 3 else {
                waitingForKeyframe = true
                return nil
            }
            guard frame.keyframe || !waitingForKeyframe else { return nil }
            if frame.keyframe {
                waitingForKeyframe = false
                keyframes.keyframe(at: time)
            }
            pendingFed += 1
            defer { hadPicture = true }
            return hadPicture ? time : 0
        }
        guard let fileTime else { return }
        // A copy: the stream seals its frame in place once this returns.
        let copy = RecordingSink.Encoded(
            accessUnit: frame.accessUnit, keyframe: frame.keyframe, parameterSets: frame.parameterSets,
            width: frame.width, height: frame.height)
        queue.async {
            self.lock.withLock { self.pendingFed -= 1 }
            self.run { try self.sink.write(copy, micros: fileTime) }
        }
    }

    public func attached() {
        lock.withLock {
            guard !stopped else { return }
            fed = true
            waitingForKeyframe = true
        }
    }

    /// The viewer's frames no longer have the file's size (the monitor changed its mode): this recording leaves
    /// the share and encodes by itself from here on.
    private func goOwnWay() {
        share?.leave(self)
        detached()
    }

    public func detached() {
        let capture: (any ScreenCapture)? = lock.withLock {
            guard !stopped, fed else { return nil }
            fed = false
            waitingForKeyframe = false
            // The own encoder's last picture is from before it idled: it starts again with a keyframe, queued
            // (under the lock) ahead of any frame of its own.
            queue.async { self.sink.resumed() }
            return timeline.isPaused ? nil : self.capture
        }
        capture?.refresh()
    }
}
