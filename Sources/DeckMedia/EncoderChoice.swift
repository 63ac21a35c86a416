/// What `--encoder` asks for.
public enum EncoderChoice: String, CaseIterable, Sendable {
    /// The first hardware encoder that opens, else x264.
    case auto
    /// libx264 (software): the default that is tested everywhere.
    case x264
    /// `h264_vaapi` (Intel/AMD through VA-API), falling back to x264.
    case vaapi
    /// `h264_nvenc` (NVIDIA), falling back to x264.
    case nvenc

    /// The encoders to try, in order; x264 is always last, so one always opens.
    public var candidates: [EncoderBackend] {
        switch self {
        case .auto: [.nvenc, .vaapi, .x264]
        case .x264: [.x264]
        case .vaapi: [.vaapi, .x264]
        case .nvenc: [.nvenc, .x264]
        }
    }
}

/// One libavcodec H.264 encoder.
public enum EncoderBackend: String, CaseIterable, Sendable {
    case x264, vaapi, nvenc

    /// The libavcodec encoder name.
    public var codecName: String {
        switch self {
        case .x264: "libx264"
        case .vaapi: "h264_vaapi"
        case .nvenc: "h264_nvenc"
        }
    }

    /// Whether the encoder can change its rate without being reopened (libx264's reconfigure path).
    var reconfiguresRate: Bool { self == .x264 }
}

/// Where the hardware encoders look for their device. Tests point them at devices that do not exist,
/// so the fallback is exercised the same way on machines with and without a GPU.
public struct HardwareOptions: Sendable, Equatable {
    /// The VA-API DRM render node.
    public var vaapiDevice: String
    /// The CUDA device index for NVENC; nil lets the driver choose.
    public var nvencGPU: Int?

    public init(vaapiDevice: String = "/dev/dri/renderD128", nvencGPU: Int? = nil) {
        self.vaapiDevice = vaapiDevice
        self.nvencGPU = nvencGPU
    }
}
