import DeckKit
import Foundation

/// The encode stage: BGRA in, one H.264 access unit out per frame (SPEC §7).
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
            preset: X264Preset = .ultrafast, crf: Int = 20, bufferFrames: Int = 60,
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
    private let log: (String) -> Void
    private let converter = FrameConverter()
    private var session: CodecSession?
    private var framesSinceKeyframe = 0

    /// Opens an encoder for frames of `sourceWidth`×`sourceHeight`. Hardware encoders that fail to open fall
    /// back to x264 with one line to `log`; throws only when x264 itself cannot open.
    public init(sourceWidth: Int, sourceHeight: Int, configuration: Configuration, log: @escaping (String) -> Void)
        throws
    {
        self.configuration = configuration
        self.log = log
        fps = StreamRate.normalize(fps: configuration.fps)
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
        if backend.reconfiguresRate {
            session.setRate(session.settings.rate(actualFps: wanted))
        } else {
            self.session = nil
            self.session = try open(backend, settings(width: session.sourceWidth, height: session.sourceHeight))
        }
    }

    /// Converts and encodes one frame. Returns nil only when a hardware encoder keeps the frame for later.
    public func encode(_ image: BGRAImage) throws -> EncodedFrame? {
        let session = try sessionFor(image)
        let clock = ContinuousClock()
        let start = clock.now
        try converter.convert(image, into: try session.inputPlanes())
        let converted = clock.now
        let forced =
            keyframeRequests.take() || framesSinceKeyframe == 0
            || framesSinceKeyframe >= safetyIntervalFrames
        let output = try session.encode(forceKeyframe: forced)
        lastStageTimes = StageTimes(convert: converted - start, encode: clock.now - converted)
        guard let (accessUnit, flaggedKey) = output else { return nil }
        // An IDR is what lets a decoder start; trust the bitstream, not only libavcodec's flag.
        let keyframe = flaggedKey && AnnexB.containsIDR(accessUnit)
        framesSinceKeyframe = keyframe ? 1 : framesSinceKeyframe + 1
        return EncodedFrame(
            accessUnit: accessUnit, keyframe: keyframe,
            parameterSets: keyframe ? AnnexB.parameterSets(accessUnit) : [],
            width: session.settings.width, height: session.settings.height)
    }

    private var safetyIntervalFrames: Int {
        let seconds =
            Double(configuration.safetyInterval.components.seconds)
            + Double(configuration.safetyInterval.components.attoseconds) / 1e18
        return max(1, Int((seconds * Double(fps)).rounded()))
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
                    log("encoder: \(failures.joined(separator: "; ")); using \(candidate.codecName)")
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
        framesSinceKeyframe = 0
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
