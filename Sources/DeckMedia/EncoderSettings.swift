import DeckKit

/// x264's speed/quality presets that fit a live stream.
public enum X264Preset: String, CaseIterable, Sendable {
    case ultrafast, superfast, veryfast
}

/// How one encoder session is configured: size, rate and the low-latency knobs (DESIGN.md#viewing, Sunshine's table).
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
    /// A still screen sends no frames after its keyframe, so the keyframe itself must be sharp; it is also the
    /// largest thing a viewer waits for. See `viewing` for the measured choice.
    public var bufferFrames: Int

    public init(
        width: Int, height: Int, fps: Int, preset: X264Preset = .ultrafast, crf: Int = Tuning.viewing.crf,
        bufferFrames: Int = Tuning.viewing.bufferFrames
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
            // Every choice here was measured on the same captured 1080p text page and moving pattern
            // (Tests/live/bench_stream.py, bench_encode.py; numbers in `Tuning`):
            // - repeat-headers: every IDR carries SPS/PPS in-band; scenecut=0: IDRs come only on demand.
            // - aq-mode=0, ipratio=3: adaptive quantisation and the usual I/P ratio put the keyframe's QP just
            //   past the point where one-pixel strokes fall apart (~31 dB instead of ~48).
            // - cabac=1: ultrafast turns CABAC off; on it takes 20 % off the moving pattern's bytes and 7 % off
            //   a text keyframe's at the same quality and no measurable CPU (it makes the stream Main profile,
            //   which every WebCodecs and VideoToolbox decoder takes).
            // - trellis=1: +0.8 dB on the text keyframe in 1 % fewer bytes, a few % of encode time.
            // - deblocking stays off (ultrafast's choice): the loop filter smears one-pixel strokes, which is
            //   most of why superfast (deblocking on) scores lower on text at a lower bitrate.
            [
                ("preset", preset.rawValue), ("tune", "zerolatency"), ("crf", String(crf)), ("forced-idr", "1"),
                ("x264-params", "repeat-headers=1:scenecut=0:aq-mode=0:ipratio=3:cabac=1:trellis=1"),
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

/// The quality target and keyframe allowance of each use, in one place.
public struct Tuning: Sendable, Equatable {
    public var crf: Int
    public var bufferFrames: Int

    /// A live viewer. The VBV must let a keyframe well past one frame's share: with Sunshine's one-frame buffer
    /// the first IDR of the text page is cut to ~46 KB and decodes at ~15 dB, and P-frames climb ~1.3 dB a
    /// frame from there (x264 cannot grow the buffer for a later keyframe). 36 frames: the 1080p text page's
    /// keyframe is 46.9 dB PSNR-Y in 709 KiB, against ffmpeg libx264 ultrafast's 45.2 dB in 734 KiB on the same
    /// frame (60 frames gave 51.4 dB in 859 KiB: sharper, but 1.17× ffmpeg's bytes and a longer wait for the
    /// first picture). CRF 17 lets the P-frames that follow sharpen what the keyframe left soft: the moving
    /// pattern averages 48.7 dB at 11.0 Mbit/s (CRF 20: 47.5 dB; before CABAC and trellis, with 60 frames of
    /// VBV: 48.6 dB at 13.8 Mbit/s).
    public static let viewing = Tuning(crf: 17, bufferFrames: 36)
    /// A file to keep, not a live picture: a keyframe every second of the file, each of which may take a full
    /// second of the budget (nobody waits for it), so text stays sharp at CRF 21 in fewer bytes a minute.
    public static let recording = Tuning(crf: 21, bufferFrames: 60)
}
