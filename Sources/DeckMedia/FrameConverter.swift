import CYUV

/// BGRA → I420 (libyuv, BT.601 limited range) and, when the video is smaller than the monitor, a box-filtered
/// scale to the fitted size. The full-size intermediate is pooled: allocated when the source size changes only.
final class FrameConverter {
    private var staging: I420Buffer?

    /// Converts `image` into `destination`, scaling when the sizes differ.
    func convert(_ image: BGRAImage, into destination: I420Planes) throws {
        if image.width == destination.width && image.height == destination.height {
            try toI420(image, destination)
            return
        }
        let full = stagingBuffer(width: image.width, height: image.height).planes
        try toI420(image, full)
        try scale(full, destination)
    }

    private func stagingBuffer(width: Int, height: Int) -> I420Buffer {
        if let staging, staging.width == width, staging.height == height { return staging }
        let fresh = I420Buffer(width: width, height: height)
        staging = fresh
        return fresh
    }

    private func toI420(_ image: BGRAImage, _ out: I420Planes) throws {
        // libyuv's "ARGB" is B,G,R,A in memory: exactly our BGRA. ARGBToI420 uses the BT.601 studio-range
        // matrix (Y 16…235); the encoder says so in the SPS (EncoderColour).
        let code = ARGBToI420(
            image.pixels.assumingMemoryBound(to: UInt8.self), Int32(image.bytesPerRow),
            out.y, Int32(out.yStride), out.u, Int32(out.uvStride), out.v, Int32(out.uvStride),
            Int32(image.width), Int32(image.height))
        guard code == 0 else { throw MediaError.conversion(call: "ARGBToI420", code: code) }
    }

    private func scale(_ from: I420Planes, _ to: I420Planes) throws {
        // The box filter averages every source pixel: thin text strokes fade instead of vanishing.
        let code = I420Scale(
            from.y, Int32(from.yStride), from.u, Int32(from.uvStride), from.v, Int32(from.uvStride),
            Int32(from.width), Int32(from.height),
            to.y, Int32(to.yStride), to.u, Int32(to.uvStride), to.v, Int32(to.uvStride),
            Int32(to.width), Int32(to.height), kFilterBox)
        guard code == 0 else { throw MediaError.conversion(call: "I420Scale", code: code) }
    }
}

@available(*, unavailable, message: "owned by one encoder on its thread")
extension FrameConverter: Sendable {}
