import DeckDesktop
import Testing

@testable import DeckWayland

/// The portal desktop's monitors placed where sway's IPC says its outputs are.
struct WaylandOutputsTests {
    static let fromWayland = [
        Monitor(id: 1, name: "HEADLESS-1", frame: PixelRect(x: 0, y: 0, width: 1280, height: 720)),
        Monitor(id: 2, name: "HEADLESS-2", frame: PixelRect(x: 0, y: 0, width: 1600, height: 1200), scale: 2),
    ]

    @Test func swaysPlacesReplaceTheOriginWaylandGivesEveryOutputKeepingTheirPixels() {
        let sway = [
            SwayOutput(name: "HEADLESS-2", active: true, rect: (x: 0, y: 0, width: 800, height: 600), scale: 2),
            SwayOutput(name: "HEADLESS-1", active: true, rect: (x: 800, y: 100, width: 1280, height: 720)),
        ]
        let placed = WaylandOutputs.placed(Self.fromWayland, by: sway)
        #expect(placed.map(\.name) == ["HEADLESS-2", "HEADLESS-1"], "left to right by sway's places")
        #expect(placed[0].frame == PixelRect(x: 0, y: 0, width: 1600, height: 1200))
        #expect(placed[1].frame == PixelRect(x: 800, y: 100, width: 1280, height: 720))
    }

    @Test func withoutSwayOrAnOutputItDoesNotNameTheMonitorsStayAsTheyAre() {
        #expect(WaylandOutputs.placed(Self.fromWayland, by: nil) == Self.fromWayland)
        let other = [SwayOutput(name: "DP-1", active: true, rect: (x: 5, y: 5, width: 10, height: 10))]
        #expect(WaylandOutputs.placed(Self.fromWayland, by: other) == Self.fromWayland)
    }
}
