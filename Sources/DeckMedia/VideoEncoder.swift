import DeckKit
import DeckLog
import Foundation

/// The encode stage: BGRA in, one H.264 access unit out per frame (DESIGN.md#viewing).
///
/// BGRA → I420 and the scale to the fitted size go through libyuv into pooled buffers; the encoder is libx264
/// (or a hardware one) through libavcodec with the low-latency settings: no B-frames, no scene-cut keyframes,
/// IDRs only on demand or after `safetyInterval`, a CRF quality target under the StreamRate ceiling with a
/// VBV buffer sized so a text keyframe stays sharp (see `EncoderSettings.bufferFrames`).
///
/// Not Sendable: it owns C state and must be created and used on the one thread or serial queue its owner
/// gives it. Other threads ask for keyframes through `keyframeRequests`, which is Sendable.
public final class VideoEncoder {
    /// What the owner asked for.
    public struct Configuration: Sendable {
        public var choice: EncoderChoice
        /// The long side the device asked for (clamped and fitted by `ScreenGeometry.fit`).
        public var maxSide: Int
        public var fps: Int
        public var preset: X264Preset
        public var crf: Int
        /// VBV buffer in frames of budget (see `EncoderSettings.bufferFrames`).
        public var bufferFrames: Int
        /// A keyframe at least this often even when nobody asks (a stream that lost one recovers).
        public var safetyInterval: Duration
        public var hardware: HardwareOptions

        public init(
            choice: EncoderChoice = .auto, maxSide: Int = ScreenGeometry.maxSide, fps: Int = StreamRate.high,
            preset: X264Preset = .ultrafast, crf: Int = Tuning.viewing.crf,
            bufferFrames: Int = Tuning.viewing.bufferFrames,
            safetyInterval: Duration = .seconds(10),
            hardware: HardwareOptions = HardwareOptions()
        ) {
            self.choice = choice
            self.maxSide = maxSide
            self.fps = fps
            self.preset = preset
            self.crf = crf
            self.bufferFrames = bufferFrames
            self.safetyInterval = safetyInterval
            self.hardware = hardware
        }
    }

    /// Raise from any thread to make the next frame an IDR.
    public let keyframeRequests = KeyframeRequests()
    /// The encoder that opened (x264 after a fallback).
    public private(set) var backend: EncoderBackend
    /// How often an encoder was opened: 1 unless the source size changed or a hardware encoder changed fps.
    public private(set) var opens = 0
    /// The current frame rate.
    public private(set) var fps: Int
    /// How long the last `encode` spent converting/scaling and encoding (for benchmarks and latency logs).
    public private(set) var lastStageTimes = StageTimes(convert: .zero, encode: .zero)

    private var configuration: Configuration
    private let log: Logger
    private let converter = FrameConverter()
    private var session: CodecSession?
    private var keyframeClock: KeyframeClock
    /// A session just opened: its first frame must be an IDR.
    private var freshSession = true
    /// The encoder's own clock, for frames that come without a time.
    private let started = ContinuousClock.now

    /// Opens an encoder for frames of `sourceWidth`×`sourceHeight`. Hardware encoders that fail to open fall
    /// back to x264 with one line to `log`; throws only when x264 itself cannot open.
    public init(sourceWidth: Int, sourceHeight: Int, configuration: Configuration, log: Logger)
        throws
    {
        self.configuration = configuration
        self.log = log
        fps = StreamRate.normalize(fps: configuration.fps)
        keyframeClock = KeyframeClock(intervalMicros: Self.micros(configuration.safetyInterval), fps: fps)
        backend = .x264
        let settings = settings(width: sourceWidth, height: sourceHeight)
        session = try openFirst(of: configuration.choice.candidates, settings: settings)
    }

    /// The size frames are encoded at (the source fitted to `maxSide`); nil only after a reopen failed.
    public var encodedSize: PixelSize? {
        session.map { PixelSize(width: $0.settings.width, height: $0.settings.height) }
    }

    /// Makes the next frame an IDR (same as `keyframeRequests.request()`).
    public func requestKeyframe() {
        keyframeRequests.request()
    }

    /// Switches between 30 and 60 fps. x264 keeps running with new rate limits (no reopen, no keyframe); a
    /// hardware encoder is reopened and its next frame is an IDR.
    public func setFrameRate(_ requested: Int) throws {
        let wanted = StreamRate.normalize(fps: requested)
        guard wanted != fps, let session else { return }
        fps = wanted
        keyframeClock.setFPS(wanted)
        if backend.reconfiguresRate {
            session.setRate(session.settings.rate(actualFps: wanted))
        } else {
            self.session = nil
            self.session = try open(backend, settings(width: session.sourceWidth, height: session.sourceHeight))
        }
    }

    /// Converts and encodes one frame captured at `micros` (any one clock; nil: now on the encoder's own).
    /// Returns nil only when a hardware encoder keeps the frame for later.
    public func encode(_ image: BGRAImage, at micros: UInt64? = nil) throws -> EncodedFrame? {
        let session = try sessionFor(image)
        let clock = ContinuousClock()
        let start = clock.now
        let time = micros ?? Self.micros(start - started)
        try converter.convert(image, into: try session.inputPlanes())
        let converted = clock.now
        let forced = keyframeRequests.take() || freshSession || keyframeClock.isDue(at: time)
        let output = try session.encode(forceKeyframe: forced)
        lastStageTimes = StageTimes(convert: converted - start, encode: clock.now - converted)
        guard let (accessUnit, flaggedKey) = output else { return nil }
        // An IDR is what lets a decoder start; EncodedFrame trusts the bitstream, not only libavcodec's flag.
        let encoded = EncodedFrame(
            collected: accessUnit, flaggedKeyframe: flaggedKey, width: session.settings.width,
            height: session.settings.height)
        if encoded.keyframe {
            keyframeClock.keyframe(at: time)
            freshSession = false
        }
        return encoded
    }

    private static func micros(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
    }

    /// The open session, reopened (with a keyframe) when the monitor's size changed.
    private func sessionFor(_ image: BGRAImage) throws -> CodecSession {
        if let session, session.sourceWidth == image.width, session.sourceHeight == image.height { return session }
        session = nil
        let fresh = try open(backend, settings(width: image.width, height: image.height))
        session = fresh
        return fresh
    }

    private func settings(width: Int, height: Int) -> SourcedSettings {
        let size = ScreenGeometry.fit(width: width, height: height, maxSide: configuration.maxSide)
        let encoder = EncoderSettings(
            width: size.width, height: size.height, fps: fps, preset: configuration.preset, crf: configuration.crf,
            bufferFrames: configuration.bufferFrames)
        return SourcedSettings(encoder: encoder, sourceWidth: width, sourceHeight: height)
    }

    private func openFirst(of candidates: [EncoderBackend], settings: SourcedSettings) throws -> CodecSession {
        var failures: [String] = []
        for candidate in candidates {
            do {
                let session = try open(candidate, settings)
                if !failures.isEmpty {
                    log.notice("encoder: \(failures.joined(separator: "; ")); using \(candidate.codecName)")
                }
                return session
            } catch {
                // x264 is always last: its failure is the caller's to handle.
                guard candidate != candidates.last else { throw error }
                failures.append("\(candidate.codecName) did not open (\(error))")
            }
        }
        preconditionFailure("the candidate list is never empty")
    }

    private func open(_ candidate: EncoderBackend, _ settings: SourcedSettings) throws -> CodecSession {
        let session = try CodecSession(
            backend: candidate, settings: settings.encoder, hardware: configuration.hardware,
            sourceWidth: settings.sourceWidth, sourceHeight: settings.sourceHeight)
        backend = candidate
        opens += 1
        freshSession = true
        return session
    }
}

/// Time spent in each stage of one `encode` call.
public struct StageTimes: Sendable, Equatable {
    public var convert: Duration
    public var encode: Duration
}

/// Encoder settings plus the source size they were fitted from.
struct SourcedSettings {
    var encoder: EncoderSettings
    var sourceWidth: Int
    var sourceHeight: Int
}

@available(*, unavailable, message: "create and use it on the encoding thread; use keyframeRequests elsewhere")
extension VideoEncoder: Sendable {}
