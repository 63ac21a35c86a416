import DeckDesktop
import DeckKit
import DeckLog
import DeckMedia
import Foundation

/// One viewer's video: capture → encode → seal → send, run on the capture back-end's own thread (X11's
/// capture thread, PipeWire's for Wayland). The host's actor only starts it, changes its options and stops it;
/// no frame passes through the actor.
///
/// Flow control is DeckKit's `SendGate`: a frame counts as in flight from the moment it is handed to the
/// transport until lws has written all of it to the socket (`onSent`). When the limit is reached the frame is
/// not even encoded; from then on frames are dropped until a keyframe gets through, and the next frame is
/// encoded as one. A still screen gives the capture no frame, so when a slot frees up while a keyframe is owed
/// the capture is asked for one (`refresh`).
///
/// A recording of the same picture (monitor, size and rate) takes this stream's frames instead of encoding them
/// again (`EncodeShare`, DESIGN.md#recording): while it is attached every frame is encoded, also those the gate
/// holds back from the device, and the recording's keyframes (one a second) are the device's too.
final class ScreenStream: @unchecked Sendable {
    /// What the viewer asked for.
    struct Options: Sendable {
        var monitor: Monitor
        var maxSide: Int
        var fps: Int
        var encoder: EncoderChoice
    }

    /// Why a stream ended by itself.
    enum Failure: Error, Equatable, Sendable {
        case capture(ScreenSourceError)
        case encoder(String)
    }

    /// The encoded size (the monitor fitted to `maxSide`), what `screenStarted` reports.
    let size: PixelSize
    private(set) var fps: Int

    private let encoder: VideoEncoder
    private let send: MediaSend
    private let failed: @Sendable (Failure) -> Void
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var gate: SendGate
    private var stopped = false
    private var wantedFPS: Int?
    private var capture: (any ScreenCapture)?
    /// Where a recording of the same picture is fed from; nil when the encoder is not x264 or there is no share.
    private let outlet: EncodeOutlet?
    private let monitor: Monitor

    /// Opens the encoder and starts capturing. `send` seals and hands one packet to the transport, calling
    /// its second argument once the packet has left; `failed` is called once if capture or encoding fails
    /// (not after `stop`). Throws when the capture cannot start or x264 cannot open.
    init(
        _ options: Options, source: ScreenSource, log: Logger, share: EncodeShare? = nil,
        send: @escaping MediaSend,
        failed: @escaping @Sendable (Failure) -> Void
    ) throws {
        let fps = StreamRate.normalize(fps: options.fps)
        let configuration = VideoEncoder.Configuration(choice: options.encoder, maxSide: options.maxSide, fps: fps)
        encoder = try VideoEncoder(
            sourceWidth: options.monitor.frame.width, sourceHeight: options.monitor.frame.height,
            configuration: configuration, log: log)
        guard let size = encoder.encodedSize else { throw Failure.encoder("the encoder did not open") }
        self.size = size
        self.fps = fps
        self.send = send
        self.failed = failed
        gate = SendGate(fps: fps)
        monitor = options.monitor
        // Only x264's frames are offered: a recording is an x264 file of known quality (`Tuning`).
        let shared = encoder.backend == .x264 ? share : nil
        outlet = shared?.offer(EncodeShare.Key(monitor: options.monitor, size: size, fps: fps))
        let handlers = CaptureHandlers(
            frame: { [weak self] frame in self?.frame(frame) },
            ended: { [weak self] error in self?.fail(.capture(error)) })
        do {
            let capture = try source.capture(options.monitor, fps, handlers)
            lock.withLock { self.capture = capture }
        } catch {
            outlet?.withdraw()
            throw error
        }
    }

    /// Why the pointer and the keys reach nothing while this stream's capture runs (`ScreenCapture.inputRefusal`).
    var inputRefusal: String? { lock.withLock { capture }?.inputRefusal }

    /// The device could not decode: the next frame is a keyframe, even on a still screen.
    func requestKeyframe() {
        encoder.requestKeyframe()
        lock.withLock { capture }?.refresh()
    }

    /// Switches between 30 and 60 fps without restarting the capture. The frames in flight stay counted
    /// against the new limit; the next frame is a keyframe.
    func setFPS(_ requested: Int) {
        let fps = StreamRate.normalize(fps: requested)
        let capture: (any ScreenCapture)? = lock.withLock {
            guard !stopped, fps != self.fps else { return nil }
            self.fps = fps
            wantedFPS = fps
            gate.limit = SendGate.limit(forFPS: fps)
            return self.capture
        }
        guard let capture else { return }
        outlet?.move(to: EncodeShare.Key(monitor: monitor, size: size, fps: fps))
        capture.setFPS(fps)
        requestKeyframe()
    }

    /// Stops capturing; returns when no frame is being handled any more (unless called from the capture
    /// thread itself, where the back-end only marks it). Idempotent.
    func stop() {
        let capture: (any ScreenCapture)? = lock.withLock {
            stopped = true
            defer { self.capture = nil }
            return self.capture
        }
        outlet?.withdraw()
        capture?.stop()
    }

    // MARK: - On the capture thread

    private func frame(_ frame: CapturedFrame) {
        let tap = outlet?.tap
        let go: (fps: Int?, keyframe: Bool, send: Bool)? = lock.withLock {
            guard !stopped else { return nil }
            guard gate.inFlight < gate.limit else {
                _ = gate.begin(keyframe: false)  // notes the drop: a keyframe is owed from now on
                // The recording still needs this picture: encoded for it alone.
                return tap == nil ? nil : (nil, false, false)
            }
            let owed = gate.claimKeyframeRequest() || gate.isWaitingForKeyframe
            defer { wantedFPS = nil }
            return (wantedFPS, owed, true)
        }
        guard let go else { return }
        do {
            if let fps = go.fps { try encoder.setFrameRate(fps) }
            if go.keyframe || tap?.wantsKeyframe(at: frame.capturedAt) == true { encoder.requestKeyframe() }
            let image = BGRAImage(
                pixels: frame.pixels, width: frame.width, height: frame.height, bytesPerRow: frame.stride)
            guard let encoded = try encoder.encode(image, at: frame.capturedAt) else { return }
            // The tap copies what it keeps before the frame is sealed in place below.
            tap?.take(encoded, capturedAt: frame.capturedAt)
            guard go.send else { return }
            ship(consume encoded, capturedAt: frame.capturedAt)
        } catch {
            fail(.encoder("\(error)"))
        }
    }

    /// Consumes the frame, so its buffer reaches the seal unshared and is sealed in place.
    private func ship(_ encoded: consuming EncodedFrame, capturedAt: UInt64) {
        let admitted = lock.withLock {
            guard !stopped else { return false }
            return gate.begin(keyframe: encoded.keyframe)
        }
        guard admitted else { return }
        let timing = VideoPacket.Timing(captureMicros: capturedAt, sendMicros: CapturedFrame.now())
        send(encoded.wireMessage(timing: timing)) { [weak self] in self?.left() }
    }

    /// One frame has been written to the socket (on the transport's thread).
    private func left() {
        let capture: (any ScreenCapture)? = lock.withLock {
            gate.finish()
            return gate.isWaitingForKeyframe && !stopped ? self.capture : nil
        }
        // A keyframe is owed and there is room again: a still screen must still deliver one.
        capture?.refresh()
    }

    private func fail(_ failure: Failure) {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        outlet?.withdraw()
        if first { failed(failure) }
    }
}
