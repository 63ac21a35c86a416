/// Where an I420 (planar 4:2:0) picture lives: three planes and their strides. Borrowed, not owned.
struct I420Planes {
    var y: UnsafeMutablePointer<UInt8>
    var u: UnsafeMutablePointer<UInt8>
    var v: UnsafeMutablePointer<UInt8>
    var yStride: Int
    var uvStride: Int
    var width: Int
    var height: Int
}

/// One I420 picture in memory this class owns: allocated once per size and reused for every frame.
final class I420Buffer {
    let width: Int
    let height: Int
    private let storage: UnsafeMutableRawPointer
    private let yStride: Int
    private let uvStride: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        // Strides rounded to 64 bytes so libyuv's SIMD rows stay aligned.
        yStride = (width + 63) & ~63
        uvStride = ((width + 1) / 2 + 63) & ~63
        let chromaRows = (height + 1) / 2
        storage = .allocate(byteCount: yStride * height + 2 * uvStride * chromaRows, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// The planes, valid while this buffer lives.
    var planes: I420Planes {
        let y = storage.assumingMemoryBound(to: UInt8.self)
        let u = y + yStride * height
        let v = u + uvStride * ((height + 1) / 2)
        return I420Planes(y: y, u: u, v: v, yStride: yStride, uvStride: uvStride, width: width, height: height)
    }
}

@available(*, unavailable, message: "owned by one encoder on its thread")
extension I420Buffer: Sendable {}
