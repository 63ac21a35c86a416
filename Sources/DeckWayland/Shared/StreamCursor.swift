import CDeckShim
import DeckDesktop

/// The pointer as a screen-cast stream's metadata describes it (Mutter's cursor-mode 2), kept between buffers —
/// the metadata carries only what changed — and drawn over the frame by the host, so a moving pointer costs
/// the compositor no new frame.
struct StreamCursor: Equatable {
    /// Where the pointer is, in the stream's pixels.
    var x = 0
    var y = 0
    var hotX = 0
    var hotY = 0
    var width = 0
    var height = 0
    /// `width × height` premultiplied RGBA pixels, row after row.
    var pixels: [UInt8] = []

    var isVisible: Bool { width > 0 && height > 0 }

    /// Takes a buffer's news (`deck_pw_cursor`'s bits and fields); returns whether the drawn cursor changed.
    mutating func update(_ news: Int32, _ meta: deck_cursor) -> Bool {
        let before = self
        if news & Int32(DECK_CURSOR_MOVED) != 0 { (x, y) = (Int(meta.x), Int(meta.y)) }
        if news & Int32(DECK_CURSOR_NEW_BITMAP) != 0 {
            (hotX, hotY) = (Int(meta.hot_x), Int(meta.hot_y))
            (width, height) = meta.pixels == nil ? (0, 0) : (Int(meta.width), Int(meta.height))
            pixels = []
            if let source = meta.pixels {
                // Copied: the metadata lives in the compositor's buffer, which goes back to it at once.
                pixels.reserveCapacity(width * height * 4)
                for row in 0..<height {
                    pixels.append(
                        contentsOf: UnsafeBufferPointer(start: source + row * Int(meta.stride), count: width * 4))
                }
            }
        }
        return self != before && (isVisible || before.isVisible)
    }

    /// The part of the picture inside a `width`×`height` frame (empty when none).
    func area(width frameWidth: Int, height frameHeight: Int) -> PixelRect {
        guard isVisible else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: x - hotX, y: y - hotY, width: width, height: height)
            .clamped(to: PixelRect(x: 0, y: 0, width: frameWidth, height: frameHeight))
    }

    /// Blends the picture over a 4-byte BGR(x/A) frame: dst = src + dst × (1 − α), the frame's fourth byte kept.
    func draw(into frame: UnsafeMutableRawPointer, stride: Int, width frameWidth: Int, height frameHeight: Int) {
        let inside = area(width: frameWidth, height: frameHeight)
        guard !inside.isEmpty else { return }
        let left = x - hotX
        let top = y - hotY
        pixels.withUnsafeBufferPointer { source in
            for row in inside.y..<(inside.y + inside.height) {
                let line = frame.advanced(by: row * stride).assumingMemoryBound(to: UInt8.self)
                for column in inside.x..<(inside.x + inside.width) {
                    let from = ((row - top) * width + (column - left)) * 4
                    let alpha = UInt32(source[from + 3])
                    guard alpha != 0 else { continue }
                    let keep = 255 - alpha
                    let to = line + column * 4
                    to[0] = Self.mix(source[from + 2], to[0], keep)  // blue
                    to[1] = Self.mix(source[from + 1], to[1], keep)  // green
                    to[2] = Self.mix(source[from], to[2], keep)  // red
                }
            }
        }
    }

    private static func mix(_ source: UInt8, _ under: UInt8, _ keep: UInt32) -> UInt8 {
        UInt8(min(UInt32(source) + (UInt32(under) * keep + 127) / 255, 255))
    }
}
