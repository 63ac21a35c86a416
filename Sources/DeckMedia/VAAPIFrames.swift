import CAVCodec

/// The VA-API device and its pool of NV12 surfaces that `h264_vaapi` encodes from.
///
/// h264_vaapi takes only VA surfaces, so each frame is uploaded from a software NV12 frame. This path compiles
/// and is probed at start, but no machine the tests run on has a GPU: it is untested beyond failing to open.
final class VAAPIFrames {
    private var device: UnsafeMutablePointer<AVBufferRef>?
    private(set) var frames: UnsafeMutablePointer<AVBufferRef>?

    init(devicePath: String, width: Int, height: Int) throws {
        try AVCall.check(
            av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_VAAPI, devicePath, nil, 0), "av_hwdevice_ctx_create")
        guard let pool = av_hwframe_ctx_alloc(device) else {
            throw MediaError.codec(call: "av_hwframe_ctx_alloc", code: -12, detail: "")
        }
        frames = pool
        let context = pool.pointee.data.withMemoryRebound(to: AVHWFramesContext.self, capacity: 1) { $0 }
        context.pointee.format = AV_PIX_FMT_VAAPI
        context.pointee.sw_format = AV_PIX_FMT_NV12
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.initial_pool_size = 4
        try AVCall.check(av_hwframe_ctx_init(pool), "av_hwframe_ctx_init")
    }

    deinit {
        av_buffer_unref(&frames)
        av_buffer_unref(&device)
    }

    /// A surface from the pool holding a copy of `software` (NV12); the caller frees it after sending.
    func upload(_ software: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
        guard let surface = av_frame_alloc() else {
            throw MediaError.codec(call: "av_frame_alloc", code: -12, detail: "")
        }
        do {
            try AVCall.check(av_hwframe_get_buffer(frames, surface, 0), "av_hwframe_get_buffer")
            try AVCall.check(av_hwframe_transfer_data(surface, software, 0), "av_hwframe_transfer_data")
            try AVCall.check(av_frame_copy_props(surface, software), "av_frame_copy_props")
        } catch {
            var owned: UnsafeMutablePointer<AVFrame>? = surface
            av_frame_free(&owned)
            throw error
        }
        return surface
    }
}

@available(*, unavailable, message: "owned by one encoder on its thread")
extension VAAPIFrames: Sendable {}
