/// A synthetic screen for tests and benchmarks: a page of small text-like glyphs that scrolls 2 px per frame
/// under a fixed toolbar, a dark side panel, and a coloured box sliding across. Hard for an encoder the way
/// real screens are: one-pixel strokes, sharp edges, mostly flat background.
public final class TestPattern {
    public let width: Int
    public let height: Int
    /// One page twice the screen's height; frames are windows into it.
    private let page: UnsafeMutablePointer<UInt32>
    private let screen: UnsafeMutablePointer<UInt32>
    private let toolbarHeight = 40

    public init(width: Int, height: Int) {
        precondition(width >= 64 && height >= 64, "the pattern needs room for its toolbar and glyphs")
        self.width = width
        self.height = height
        page = .allocate(capacity: width * height * 2)
        screen = .allocate(capacity: width * height)
        drawPage()
    }

    deinit {
        page.deallocate()
        screen.deallocate()
    }

    /// Draws frame `index` and hands it to `body`; the image borrows this pattern's memory, so it is valid
    /// only inside `body`.
    public func withFrame<T>(_ index: Int, _ body: (BGRAImage) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(frame(index)) }
    }

    private func frame(_ index: Int) -> BGRAImage {
        let scroll = (index * 2) % height
        for row in 0..<height {
            let source = row < toolbarHeight ? row : row + scroll
            (screen + row * width).update(from: page + source * width, count: width)
        }
        drawBox(at: (index * 8) % max(1, width - 120))
        return BGRAImage(pixels: UnsafeRawPointer(screen), width: width, height: height, bytesPerRow: width * 4)
    }

    private func drawPage() {
        page.update(repeating: Self.colour(255, 255, 255), count: width * height * 2)
        for row in 0..<toolbarHeight {
            (page + row * width).update(repeating: Self.colour(60, 64, 72), count: width)
        }
        let panel = width * 3 / 4
        for row in toolbarHeight..<(height * 2) {
            (page + row * width + panel).update(repeating: Self.colour(32, 33, 36), count: width - panel)
        }
        for line in 0..<(height * 2 / 16) {
            drawLine(line, from: 8, to: panel - 8, ink: line % 7 == 3 ? Self.colour(26, 13, 171) : Self.colour(0, 0, 0))
            drawLine(line, from: panel + 8, to: width - 8, ink: Self.colour(220, 220, 220))
        }
    }

    /// One line of words: glyph cells 8×16 px with 5×9 dot glyphs, words of 2…8 glyphs.
    private func drawLine(_ line: Int, from left: Int, to right: Int, ink: UInt32) {
        let top = line * 16 + 3
        guard top + 10 < height * 2, line * 16 >= toolbarHeight else { return }
        var seed = UInt32(truncatingIfNeeded: line &* 2_654_435_761) | 1
        var x = left
        while x + 8 < right {
            seed = seed &* 1_103_515_245 &+ 12345
            let word = 2 + Int(seed >> 28) % 7
            for _ in 0..<word where x + 8 < right {
                seed = seed &* 1_103_515_245 &+ 12345
                drawGlyph(bits: seed, x: x, y: top, ink: ink)
                x += 8
            }
            x += 8
        }
    }

    private func drawGlyph(bits: UInt32, x: Int, y: Int, ink: UInt32) {
        // Letter-like shapes from one-pixel strokes: left/right/centre stems and top/middle/bottom bars
        // (E, F, H, L, T, U, I, n, o… come out of the six bits), 5×9 px in an 8×16 cell.
        let shape = Int(bits >> 20)
        for row in 0..<9 {
            let line = page + (y + row) * width + x
            if shape & 1 != 0 || shape & 0b11_1110 == 0 { line[0] = ink }
            if shape & 2 != 0 { line[4] = ink }
            if shape & 4 != 0, row >= 2 { line[2] = ink }
            let bar = (row == 0 && shape & 8 != 0) || (row == 4 && shape & 16 != 0) || (row == 8 && shape & 32 != 0)
            if bar { line.update(repeating: ink, count: 5) }
        }
    }

    private func drawBox(at left: Int) {
        let top = toolbarHeight + height / 3
        for row in top..<min(height, top + 80) {
            (screen + row * width + left).update(repeating: Self.colour(230, 120, 20), count: min(120, width - left))
        }
    }

    /// A BGRA pixel as a little-endian UInt32 (bytes B, G, R, A in memory).
    private static func colour(_ red: UInt32, _ green: UInt32, _ blue: UInt32) -> UInt32 {
        blue | green << 8 | red << 16 | 0xFF00_0000
    }
}

@available(*, unavailable, message: "owns its buffers; use it on one thread")
extension TestPattern: Sendable {}
