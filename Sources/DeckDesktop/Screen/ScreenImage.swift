/// How a screen picture's 4-byte pixels are laid out in memory.
public enum PixelFormat: Equatable, Hashable, Sendable {
    /// Bytes blue, green, red, alpha.
    case bgra
    /// Bytes blue, green, red, then one byte to ignore (an X depth-24 visual).
    case bgrx
}

/// One picture of a monitor: `height` rows of `width` 4-byte pixels, each row starting `stride` bytes after
/// the previous one (a row may carry padding past its last pixel).
///
/// One-shot grabs own their bytes. Continuous capture (a later part) hands frames over in pooled buffers
/// with the same layout, so code written against this shape (the thumbnailer, the colour converter) serves both.
public struct ScreenImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Bytes from the start of one row to the start of the next, at least `width * 4`.
    public var stride: Int
    public var format: PixelFormat
    /// At least `stride * (height - 1) + width * 4` bytes.
    public var pixels: [UInt8]

    /// A picture from its parts; traps when `pixels` is too short for the layout (a back-end bug).
    public init(width: Int, height: Int, stride: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && stride >= width * 4, "bad screen image layout")
        precondition(pixels.count >= stride * (height - 1) + width * 4, "screen image shorter than its layout")
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.pixels = pixels
    }

    /// A picture of one colour, tightly packed; for tests and fakes.
    public static func solid(width: Int, height: Int, blue: UInt8, green: UInt8, red: UInt8) -> ScreenImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for offset in Swift.stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = blue
            pixels[offset + 1] = green
            pixels[offset + 2] = red
        }
        return ScreenImage(width: width, height: height, stride: width * 4, format: .bgrx, pixels: pixels)
    }
}
