import DeckKit

/// x264's speed/quality presets that fit a live stream.
public enum X264Preset: String, CaseIterable, Sendable {
    case ultrafast, superfast, veryfast
}

/// How one encoder session is configured: size, rate and the low-latency knobs (SPEC §7, Sunshine's table).
public struct EncoderSettings: Sendable, Equatable {
    /// Encoded size (already fitted, even).
    public var width: Int
    public var height: Int
    /// Frames per second the encoder was opened for.
    public var fps: Int
    public var preset: X264Preset
    /// x264's constant-rate-factor: the quality target that the bitrate budget caps.
    public var crf: Int
    /// The VBV buffer in frames' worth of the budget: how far one frame (a keyframe) may exceed its share.
    ///
    /// Measured (touchdeck-encode-sample, 1080p text pattern): with Sunshine's one-frame buffer the first IDR
    /// is cut to ~46 KB and decodes at ~15 dB PSNR-Y, and P-frames climb ~1.3 dB a frame from there; x264
    /// cannot grow the buffer's fill for a later keyframe by reconfiguring either. A still screen sends no
    /// frames after its keyframe, so the keyframe itself must be sharp: 60 frames (one second at 60 fps) lets
    /// a ~0.9 MB text IDR through at ~48 dB. P-frames stay far below the cap because CRF sets their quality.
    public var bufferFrames: Int

    public init(
        width: Int, height: Int, fps: Int, preset: X264Preset = .ultrafast, crf: Int = 20, bufferFrames: Int = 60
    ) {
        self.width = width
        self.height = height
        self.fps = fps
        self.preset = preset
        self.crf = crf
        self.bufferFrames = bufferFrames
    }

    /// The rate limits for frames arriving at `actualFps` into an encoder opened at `fps`.
    ///
    /// With `tune=zerolatency` x264 ignores timestamps and assumes the opened rate, so a 30 fps stream in a
    /// 60 fps encoder would get half the budget. Scaling the ceiling by `fps / actualFps` keeps the
    /// per-frame allowance (one frame of the StreamRate budget) exact without reopening.
    public func rate(actualFps: Int) -> RateLimits {
        let budget = StreamRate.bitrate(width: width, height: height, fps: actualFps)
        let perFrame = budget / max(1, actualFps)
        return RateLimits(
            maxBitrate: perFrame * max(1, fps), bufferBits: perFrame * max(1, bufferFrames), budget: budget)
    }

    /// libavcodec private options for `backend`, as name/value pairs for `avcodec_open2`.
    func options(for backend: EncoderBackend, hardware: HardwareOptions) -> [(String, String)] {
        switch backend {
        case .x264:
            // repeat-headers: every IDR carries SPS/PPS in-band; scenecut=0: IDRs come only on demand.
            // aq-mode=0 and ipratio=3 (measured on text): adaptive quantisation and the usual I/P ratio put
            // the keyframe's QP just past the point where one-pixel strokes fall apart (~31 dB instead of ~48).
            [
                ("preset", preset.rawValue), ("tune", "zerolatency"), ("crf", String(crf)), ("forced-idr", "1"),
                ("x264-params", "repeat-headers=1:scenecut=0:aq-mode=0:ipratio=3"),
            ]
        case .nvenc:
            [
                ("preset", "p1"), ("tune", "ull"), ("zerolatency", "1"), ("delay", "0"), ("forced-idr", "1"),
                ("rc", "vbr"), ("cq", String(crf)),
            ] + (hardware.nvencGPU.map { [("gpu", String($0))] } ?? [])
        case .vaapi:
            [("async_depth", "1"), ("sei", "0")]
        }
    }
}

/// Bit rate ceiling and VBV buffer handed to the encoder.
public struct RateLimits: Sendable, Equatable {
    /// `rc_max_rate`, bit/s, as the encoder counts time.
    public var maxBitrate: Int
    /// `rc_buffer_size`, bits: `bufferFrames` frames' share of the budget.
    public var bufferBits: Int
    /// The StreamRate budget this stands for, bit/s of real time.
    public var budget: Int

    public init(maxBitrate: Int, bufferBits: Int, budget: Int) {
        self.maxBitrate = maxBitrate
        self.bufferBits = bufferBits
        self.budget = budget
    }
}
