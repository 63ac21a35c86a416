import CDeckShim
import DeckDesktop
import Testing

@testable import DeckWayland

/// The host-drawn cursor without a compositor: metadata in, pixels out.
struct StreamCursorTests {
    /// A 2×2 premultiplied RGBA picture: opaque red, half-transparent white, transparent, opaque blue.
    let bitmap: [UInt8] = [255, 0, 0, 255, 128, 128, 128, 128, 0, 0, 0, 0, 0, 0, 255, 255]

    func cursor(at x: Int32, _ y: Int32, hot: Int32 = 0) -> StreamCursor {
        var cursor = StreamCursor()
        bitmap.withUnsafeBufferPointer { pixels in
            var meta = deck_cursor()
            (meta.x, meta.y, meta.hot_x, meta.hot_y) = (x, y, hot, hot)
            (meta.width, meta.height, meta.stride, meta.pixels) = (2, 2, 8, pixels.baseAddress)
            _ = cursor.update(Int32(DECK_CURSOR_MOVED | DECK_CURSOR_NEW_BITMAP), meta)
        }
        return cursor
    }

    @Test func aMoveWithoutABitmapKeepsThePictureAndAnInvisibleCursorDrawsNothing() {
        var moved = self.cursor(at: 1, 1)
        var meta = deck_cursor()
        (meta.x, meta.y) = (5, 6)
        let changed = moved.update(Int32(DECK_CURSOR_MOVED), meta)
        #expect(changed)
        #expect((moved.x, moved.y, moved.width) == (5, 6, 2))
        let unchanged = moved.update(0, deck_cursor())
        #expect(!unchanged, "no news is no change")
        var hidden = deck_cursor()
        (hidden.x, hidden.y) = (5, 6)
        let hiddenNow = moved.update(Int32(DECK_CURSOR_MOVED | DECK_CURSOR_NEW_BITMAP), hidden)
        #expect(hiddenNow)
        #expect(!moved.isVisible && moved.area(width: 10, height: 10).isEmpty)
    }

    @Test func thePictureIsBlendedAtItsHotspotAndClippedAtTheEdge() {
        var frame = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for offset in Swift.stride(from: 0, to: frame.count, by: 4) { frame[offset..<offset + 4] = [0, 200, 0, 7] }
        let cursor = self.cursor(at: 3, 3, hot: 0)  // only its top-left pixel is inside a 4×4 frame
        #expect(cursor.area(width: 4, height: 4) == PixelRect(x: 3, y: 3, width: 1, height: 1))
        frame.withUnsafeMutableBytes { cursor.draw(into: $0.baseAddress!, stride: 16, width: 4, height: 4) }
        #expect(Array(frame[60..<64]) == [0, 0, 255, 7], "opaque red over green, padding byte kept")
        #expect(Array(frame[56..<60]) == [0, 200, 0, 7], "outside the cursor unchanged")

        var inside = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for offset in Swift.stride(from: 0, to: inside.count, by: 4) { inside[offset..<offset + 4] = [0, 200, 0, 7] }
        let centred = self.cursor(at: 1, 1)
        inside.withUnsafeMutableBytes { centred.draw(into: $0.baseAddress!, stride: 16, width: 4, height: 4) }
        #expect(Array(inside[24..<28]) == [128, 228, 128, 7], "half white over green: 128 + 200 × 127/255")
        #expect(Array(inside[20 + 16..<24 + 16]) == [0, 200, 0, 7], "a transparent pixel leaves the frame")
        #expect(Array(inside[24 + 16..<28 + 16]) == [255, 0, 0, 7], "opaque blue")
    }
}
