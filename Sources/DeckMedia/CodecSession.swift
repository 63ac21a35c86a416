import CAVCodec
import CYUV
import DeckKit
import Foundation

/// One open libavcodec encoder with the frame and packet it reuses: owns the `AVCodecContext`, `AVFrame` and
/// `AVPacket` (and for VA-API the device and surfaces), freed in `deinit`.
final class CodecSession {
    let backend: EncoderBackend
    let settings: EncoderSettings
    /// The monitor size the settings were fitted from.
    let sourceWidth: Int
    let sourceHeight: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var hardware: VAAPIFrames?
    /// VA-API only: the I420 picture the converter writes before it is interleaved to NV12 and uploaded.
    private var staging: I420Buffer?
    private var nextTimestamp: Int64 = 0

    init(
        backend: EncoderBackend, settings: EncoderSettings, hardware options: HardwareOptions, sourceWidth: Int,
        sourceHeight: Int
    ) throws {
        self.backend = backend
        self.settings = settings
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        AVLog.install()
        _ = AVLog.takeLastError()
        guard let codec = avcodec_find_encoder_by_name(backend.codecName) else {
            throw MediaError.encoderMissing(backend.codecName)
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(),
            let packet = av_packet_alloc()
        else { throw MediaError.codec(call: "allocation", code: -12, detail: "") }
        (self.context, self.frame, self.packet) = (context, frame, packet)
        configure(context, rate: settings.rate(actualFps: settings.fps))
        if backend == .vaapi {
            let surfaces = try VAAPIFrames(
                devicePath: options.vaapiDevice, width: settings.width, height: settings.height)
            hardware = surfaces
            context.pointee.pix_fmt = AV_PIX_FMT_VAAPI
            context.pointee.hw_frames_ctx = av_buffer_ref(surfaces.frames)
            staging = I420Buffer(width: settings.width, height: settings.height)
        }
        try open(context, codec, settings.options(for: backend, hardware: options))
        try allocatePicture(frame, format: backend == .vaapi ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P)
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Sets new rate limits; libx264's wrapper applies them on the next frame without reopening.
    func setRate(_ rate: RateLimits) {
        guard let context else { return }
        context.pointee.rc_max_rate = Int64(rate.maxBitrate)
        context.pointee.rc_buffer_size = Int32(rate.bufferBits)
    }

    /// The planes the next picture must be written into (the pooled frame, made writable if the encoder still
    /// holds a reference to it).
    func inputPlanes() throws -> I420Planes {
        if let staging { return staging.planes }
        guard let frame else { preconditionFailure("no frame") }
        try AVCall.check(av_frame_make_writable(frame), "av_frame_make_writable")
        return I420Planes(
            y: frame.pointee.data.0!, u: frame.pointee.data.1!, v: frame.pointee.data.2!,
            yStride: Int(frame.pointee.linesize.0), uvStride: Int(frame.pointee.linesize.1),
            width: settings.width, height: settings.height)
    }

    /// Encodes the picture last written to `inputPlanes()`; returns the access unit (copied once out of the
    /// packet, into a buffer with room for what the send path puts around it) and whether libavcodec marked it
    /// a keyframe, or nil when the encoder kept the frame for later (hardware pipelines).
    func encode(forceKeyframe: Bool) throws -> (accessUnit: WireBuffer, keyframe: Bool)? {
        guard let context, let frame, let packet else { preconditionFailure("session closed") }
        frame.pointee.pict_type = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        frame.pointee.pts = nextTimestamp
        nextTimestamp += 1
        try send(frame, to: context)
        var accessUnit: WireBuffer?
        var keyframe = false
        while true {
            let code = avcodec_receive_packet(context, packet)
            if code == deck_averror_eagain() { break }
            try AVCall.check(code, "avcodec_receive_packet")
            EncodedFrame.collect(
                UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)), into: &accessUnit)
            keyframe = keyframe || packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            av_packet_unref(packet)
        }
        guard let accessUnit, accessUnit.count > 0 else { return nil }
        return (accessUnit, keyframe)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>, to context: UnsafeMutablePointer<AVCodecContext>) throws {
        guard let hardware, let staging else {
            try AVCall.check(avcodec_send_frame(context, frame), "avcodec_send_frame")
            return
        }
        try AVCall.check(av_frame_make_writable(frame), "av_frame_make_writable")
        let planes = staging.planes
        let code = I420ToNV12(
            planes.y, Int32(planes.yStride), planes.u, Int32(planes.uvStride), planes.v, Int32(planes.uvStride),
            frame.pointee.data.0, frame.pointee.linesize.0, frame.pointee.data.1, frame.pointee.linesize.1,
            Int32(settings.width), Int32(settings.height))
        guard code == 0 else { throw MediaError.conversion(call: "I420ToNV12", code: code) }
        var surface: UnsafeMutablePointer<AVFrame>? = try hardware.upload(frame)
        defer { av_frame_free(&surface) }
        try AVCall.check(avcodec_send_frame(context, surface), "avcodec_send_frame")
    }

    private func configure(_ context: UnsafeMutablePointer<AVCodecContext>, rate: RateLimits) {
        let fps = Int32(settings.fps)
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: fps)
        context.pointee.framerate = AVRational(num: fps, den: 1)
        // Keyframes come only when asked (VideoEncoder also counts the safety interval itself): no GOP.
        context.pointee.gop_size = Int32.max / 2
        context.pointee.max_b_frames = 0
        // x264 works in CRF (a quality target) under the VBV ceiling; the hardware encoders get the ceiling.
        context.pointee.bit_rate = backend == .x264 ? 0 : Int64(rate.maxBitrate)
        context.pointee.rc_max_rate = Int64(rate.maxBitrate)
        context.pointee.rc_buffer_size = Int32(rate.bufferBits)
        EncoderColour.describe(context)
    }

    private func open(
        _ context: UnsafeMutablePointer<AVCodecContext>, _ codec: UnsafePointer<AVCodec>, _ options: [(String, String)]
    ) throws {
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        try AVCall.check(avcodec_open2(context, codec, &dictionary), "avcodec_open2(\(backend.codecName))")
    }

    private func allocatePicture(_ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat) throws {
        frame.pointee.format = format.rawValue
        frame.pointee.width = Int32(settings.width)
        frame.pointee.height = Int32(settings.height)
        EncoderColour.describe(frame)
        // Allocated once per session and reused for every frame: the pool the converter writes into.
        try AVCall.check(av_frame_get_buffer(frame, 64), "av_frame_get_buffer")
    }
}

@available(*, unavailable, message: "owned by one encoder on its thread")
extension CodecSession: Sendable {}

/// The colour description written into the SPS VUI; it must match what FrameConverter produces.
///
/// libyuv's ARGBToI420 uses the BT.601 matrix in limited (studio, Y 16…235) range, so the SPS says
/// matrix SMPTE 170M (BT.601), range limited; the pixels are sRGB, so primaries BT.709 and transfer sRGB.
public enum EncoderColour {
    /// `matrix_coefficients` in the SPS VUI (6 = SMPTE 170M / BT.601).
    public static let matrixCoefficients = 6
    /// `colour_primaries` (1 = BT.709, the sRGB primaries).
    public static let colourPrimaries = 1
    /// `transfer_characteristics` (13 = IEC 61966-2-1, sRGB).
    public static let transferCharacteristics = 13
    /// `video_full_range_flag` (false: limited range).
    public static let fullRange = false

    static func describe(_ context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.colorspace = AVCOL_SPC_SMPTE170M
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    }

    static func describe(_ frame: UnsafeMutablePointer<AVFrame>) {
        frame.pointee.colorspace = AVCOL_SPC_SMPTE170M
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
    }
}
