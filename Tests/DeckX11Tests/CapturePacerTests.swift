import DeckDesktop
import Testing

@testable import DeckX11

/// The capture's pacing rule and cursor drawing, without a display: the clock is a number.
@Suite struct CapturePacerTests {
    let second: UInt64 = 1_000_000_000

    @Test func theWholeFrameIsDueAtOnceThenNothingUntilSomethingChanges() {
        var pacer = CapturePacer(width: 100, height: 50, fps: 10)
        #expect(pacer.takeFrame(now: 5) == [PixelRect(x: 0, y: 0, width: 100, height: 50)])
        #expect(pacer.dueAt() == nil)
        #expect(pacer.takeFrame(now: 10 * second) == nil)
    }

    @Test func damageWaitsForTheIntervalAndIsGrabbedOnceClampedToTheFrame() {
        var pacer = CapturePacer(width: 100, height: 50, fps: 10)
        _ = pacer.takeFrame(now: 0)
        pacer.damaged(PixelRect(x: 90, y: 40, width: 20, height: 20))
        pacer.damaged(PixelRect(x: 0, y: 0, width: 5, height: 5))
        pacer.damaged(PixelRect(x: 1, y: 1, width: 2, height: 2))
        pacer.damaged(PixelRect(x: 200, y: 0, width: 5, height: 5))
        #expect(pacer.dueAt() == second / 10)
        #expect(pacer.takeFrame(now: second / 10 - 1) == nil)
        #expect(
            pacer.takeFrame(now: second / 10)
                == [PixelRect(x: 90, y: 40, width: 10, height: 10), PixelRect(x: 0, y: 0, width: 5, height: 5)])
        pacer.setFPS(2)
        pacer.refresh()
        #expect(pacer.dueAt() == second / 10 + second / 2)
    }

    @Test func manyRectanglesBecomeTheirBoundingBox() {
        var pacer = CapturePacer(width: 1000, height: 10, fps: 30)
        _ = pacer.takeFrame(now: 0)
        for index in 0...CapturePacer.mostRectangles {
            pacer.damaged(PixelRect(x: index * 10, y: 2, width: 5, height: 1))
        }
        #expect(
            pacer.takeFrame(now: second) == [
                PixelRect(x: 0, y: 2, width: CapturePacer.mostRectangles * 10 + 5, height: 1)
            ])
    }

    @Test func theCursorIsBlendedPremultipliedAndClippedToTheFrame() {
        // 2×1 cursor: opaque red, then half-transparent white (premultiplied: 0x80 in every channel).
        let cursor = CursorImage(width: 2, height: 1, hotX: 1, hotY: 0, pixels: [0xFF_FF_00_00, 0x80_80_80_80])
        var frame: [UInt8] = [10, 20, 30, 0, 10, 20, 30, 0]
        frame.withUnsafeMutableBytes { bytes in
            let at = cursor.frame(pointerX: 0, pointerY: 0)
            cursor.draw(
                into: bytes.baseAddress!, stride: 8, size: PixelRect(x: 0, y: 0, width: 2, height: 1), left: at.x,
                top: at.y)
        }
        // (0,0) gets the white half; the red half lies left of the frame and is clipped away.
        let expected: [UInt8] = [133, 138, 143, 0, 10, 20, 30, 0]  // 0x80 + half of 10, 20, 30
        #expect(frame == expected)
    }
}
