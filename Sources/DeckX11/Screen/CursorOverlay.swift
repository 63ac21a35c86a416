import DeckDesktop

/// The pointer's picture, drawn over captured frames (the X server leaves it out of every grab).
struct CursorImage: Equatable {
    var width: Int
    var height: Int
    /// Where the pointer's position lies inside the picture.
    var hotX: Int
    var hotY: Int
    /// `width * height` pixels, premultiplied ARGB (alpha in the top byte), row after row.
    var pixels: [UInt32]

    /// Where the picture lies when the pointer is at (`x`, `y`), in the same coordinates.
    func frame(pointerX x: Int, pointerY y: Int) -> PixelRect {
        PixelRect(x: x - hotX, y: y - hotY, width: width, height: height)
    }

    /// Blends the picture over a 4-byte BGR(x/A) frame of `size` (the clipped part only), its top-left corner at
    /// (`left`, `top`) of the frame; the alpha/padding byte of the frame is left as it was.
    func draw(into pixels: UnsafeMutableRawPointer, stride: Int, size: PixelRect, left: Int, top: Int) {
        let area = PixelRect(x: left, y: top, width: width, height: height).clamped(to: size)
        guard !area.isEmpty else { return }
        for row in area.y..<(area.y + area.height) {
            let line = pixels.advanced(by: row * stride).assumingMemoryBound(to: UInt8.self)
            let source = (row - top) * width - left
            for column in area.x..<(area.x + area.width) {
                Self.blend(self.pixels[source + column], over: line.advanced(by: column * 4))
            }
        }
    }

    /// dst = src + dst × (1 − α), per channel, with `src` premultiplied.
    private static func blend(_ argb: UInt32, over pixel: UnsafeMutablePointer<UInt8>) {
        let alpha = argb >> 24
        guard alpha != 0 else { return }
        let keep = 255 - alpha
        pixel[0] = mix(UInt8(truncatingIfNeeded: argb), pixel[0], keep)
        pixel[1] = mix(UInt8(truncatingIfNeeded: argb >> 8), pixel[1], keep)
        pixel[2] = mix(UInt8(truncatingIfNeeded: argb >> 16), pixel[2], keep)
    }

    private static func mix(_ source: UInt8, _ under: UInt8, _ keep: UInt32) -> UInt8 {
        UInt8(min(UInt32(source) + (UInt32(under) * keep + 127) / 255, 255))
    }
}
