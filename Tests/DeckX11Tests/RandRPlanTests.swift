import DeckDesktop
import DeckKit
import Testing

@testable import DeckX11

/// Extend's planning on X11 without a server: which output is taken, where the new monitor goes and what moves for
/// it, and the new mode's timings.
@Suite struct RandRPlanTests {
    typealias Crtc = RandRLayout.Crtc
    typealias Output = RandRLayout.Output

    /// One 1920x1080 monitor on output 10 (CRTC 1), outputs 11 and 12 off with CRTCs 2 and 3 free.
    var layout: RandRLayout {
        RandRLayout(
            screen: RandRLayout.Screen(width: 1920, height: 1080, widthMM: 508, heightMM: 286),
            maxWidth: 8192, maxHeight: 8192,
            crtcs: [
                Crtc(id: 1, x: 0, y: 0, width: 1920, height: 1080, mode: 100, rotation: 1, outputs: [10]),
                Crtc(id: 2, x: 0, y: 0, width: 0, height: 0, mode: 0, rotation: 1, outputs: []),
                Crtc(id: 3, x: 0, y: 0, width: 0, height: 0, mode: 0, rotation: 1, outputs: []),
            ],
            outputs: [
                Output(id: 10, name: "DP-1", connected: true, crtc: 1, crtcs: [1], modes: [100]),
                Output(id: 11, name: "HDMI-1", connected: false, crtc: 0, crtcs: [2], modes: []),
                Output(id: 12, name: "HDMI-2", connected: false, crtc: 0, crtcs: [3], modes: []),
            ],
            modes: [RandRLayout.Mode(id: 100, name: "1920x1080")])
    }

    @Test func theFirstDisconnectedOutputWithAFreeCrtcIsTakenAndOneMadeBeforeFirst() {
        #expect(layout.freeOutput(made: [])?.output.name == "HDMI-1")
        #expect(layout.freeOutput(made: [])?.crtc.id == 2)
        var used = layout
        // The dummy driver calls an output connected once it was lit: the record makes it free again.
        used.outputs[2].connected = true
        #expect(used.freeOutput(made: ["HDMI-2"])?.output.name == "HDMI-2")
        #expect(used.freeOutput(made: [])?.output.name == "HDMI-1")
    }

    @Test func aConnectedOutputSwitchedOffOrOneWithoutAFreeCrtcIsNeverTaken() {
        var full = layout
        full.outputs[1].connected = true
        full.crtcs[2].mode = 7
        full.crtcs[2].outputs = [99]
        #expect(full.freeOutput(made: []) == nil)
        let xvfb = RandRLayout(
            screen: layout.screen, maxWidth: 8192, maxHeight: 8192, crtcs: [layout.crtcs[0]],
            outputs: [layout.outputs[0]], modes: layout.modes)
        #expect(xvfb.freeOutput(made: []) == nil)
    }

    @Test func rightOfTheMonitorsTheScreenGrowsAndNothingMoves() {
        let plan = RandRPlan(layout, width: 2388, height: 1668, placement: .right)
        #expect(plan.frame == PixelRect(x: 1920, y: 0, width: 2388, height: 1668))
        #expect(plan.moved == [layout.crtcs[0]])
        #expect(plan.screen == RandRLayout.Screen(width: 4308, height: 1668, widthMM: 1140, heightMM: 442))
    }

    @Test func leftOfOrAboveTheMonitorsTheOthersMoveByTheNewOnesSize() {
        let left = RandRPlan(layout, width: 1280, height: 800, placement: .left)
        #expect(left.frame == PixelRect(x: 0, y: 0, width: 1280, height: 800))
        #expect(left.moved.map { ($0.x, $0.y) }.elementsEqual([(1280, 0)], by: ==))
        #expect((left.screen.width, left.screen.height) == (3200, 1080))
        let above = RandRPlan(layout, width: 1280, height: 800, placement: .above)
        #expect(above.frame == PixelRect(x: 0, y: 0, width: 1280, height: 800))
        #expect(above.moved.map { ($0.x, $0.y) }.elementsEqual([(0, 800)], by: ==))
        #expect((above.screen.width, above.screen.height) == (1920, 1880))
        let below = RandRPlan(layout, width: 1280, height: 800, placement: .below)
        #expect(below.frame == PixelRect(x: 0, y: 1080, width: 1280, height: 800))
        #expect((below.screen.width, below.screen.height) == (1920, 1880))
    }

    @Test func aBoxThatDoesNotStartAtTheCornerLeavesRoomOnItsLeft() {
        var shifted = layout
        shifted.crtcs[0].x = 1500
        shifted.screen.width = 3420
        let plan = RandRPlan(shifted, width: 1280, height: 800, placement: .left)
        #expect(plan.frame == PixelRect(x: 220, y: 0, width: 1280, height: 800))
        #expect(plan.moved == [shifted.crtcs[0]])
        #expect(plan.screen.width == 3420)
    }

    @Test func modeTimingsAreCVTWithReducedBlankingAsCvtDashRComputesThem() {
        // cvt -r 1920 1080: 138.50  1920 1968 2000 2080  1080 1083 1088 1111 +hsync -vsync
        let hd = CVTMode(width: 1920, height: 1080)
        #expect(hd.dotClock == 138_500_000)
        #expect([hd.hSyncStart, hd.hSyncEnd, hd.hTotal] == [1968, 2000, 2080])
        #expect([hd.vSyncStart, hd.vSyncEnd, hd.vTotal] == [1083, 1088, 1111])
        // cvt -r 1280 800: 71.00  1280 1328 1360 1440  800 803 809 823 +hsync -vsync
        let wide = CVTMode(width: 1280, height: 800)
        #expect(wide.dotClock == 71_000_000)
        #expect([wide.vSyncStart, wide.vSyncEnd, wide.vTotal] == [803, 809, 823])
        // Any other aspect ratio: a 10-line sync.
        let pad = CVTMode(width: 2388, height: 1668)
        #expect(pad.vSyncEnd - pad.vSyncStart == 10)
    }
}
