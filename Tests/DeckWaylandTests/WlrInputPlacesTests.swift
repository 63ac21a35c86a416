import DeckDesktop
import DeckKit
import Testing

@testable import DeckWayland

/// Absolute moves on sway: a monitor's own pixels to layout pixels.
struct WlrInputPlacesTests {
    static let places = [
        PixelRect(x: 0, y: 0, width: 1440, height: 900),
        PixelRect(x: 1440, y: 0, width: 800, height: 600),
    ]

    @Test func aScaledOutputsPixelsAreScaledToItsPlaceInTheLayout() {
        // A 2880×1800 output at scale 2 covers 1440×900 layout pixels: its centre pixel is the layout's 720, 450.
        let centre = MonitorPixel(x: 1440, y: 900, monitor: Rect(x: 0, y: 0, width: 2880, height: 1800))
        #expect(WlrInput.layoutPoint(centre, places: Self.places) == (720, 450))
    }

    @Test func anUnscaledOutputOrExtendsLayoutAreaIsUnchanged() {
        let second = MonitorPixel(x: 400, y: 300, monitor: Rect(x: 1440, y: 0, width: 800, height: 600))
        #expect(WlrInput.layoutPoint(second, places: Self.places) == (1840, 300))
    }

    @Test func aMonitorAtNoPlaceSwayKnowsIsTakenAsItIs() {
        let elsewhere = MonitorPixel(x: 10, y: 20, monitor: Rect(x: 5000, y: 0, width: 100, height: 100))
        #expect(WlrInput.layoutPoint(elsewhere, places: Self.places) == (5010, 20))
        #expect(WlrInput.layoutPoint(elsewhere, places: []) == (5010, 20))
    }
}
