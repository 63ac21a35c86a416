/// A borrowed BGRA/BGRx picture (byte order B, G, R, A/x in memory, as XShm and PipeWire deliver it).
///
/// Nothing is copied: the pointer must stay valid and unchanged while `VideoEncoder.encode` runs.
public struct BGRAImage {
    public let pixels: UnsafeRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `width * 4`).
    public let bytesPerRow: Int

    public init(pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width > 0 && height > 0 && bytesPerRow >= width * 4, "bad BGRA image geometry")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }
}

@available(*, unavailable, message: "borrows memory; use it where it was made")
extension BGRAImage: Sendable {}
