import DeckDesktop
import Foundation
import Testing

@testable import DeckWayland

/// Two monitors: `MUTTER_SIZE="1280x720 800x600" scripts/with-mutter …` (skipped otherwise). Mutter places them
/// side by side; each is recorded by its own connector and streams at its own size.
@Suite(.serialized, .enabled(if: privateMutter && mutterMonitorSizes == ["1280x720", "800x600"]))
struct MutterTwoMonitorTests {
    @Test func bothAreListedLeftToRightAndTheSecondStreamsAtItsOwnSize() async throws {
        let desktop = MutterDesktop()
        let monitors = try await desktop.screen.monitors()
        #expect(monitors.map(\.name) == ["Meta-0", "Meta-1"])
        #expect(
            monitors.map(\.frame) == [
                PixelRect(x: 0, y: 0, width: 1280, height: 720), PixelRect(x: 1280, y: 0, width: 800, height: 600),
            ])
        #expect(Set(monitors.map(\.id)).count == 2)
        let recorder = FrameRecorder()
        let second = try #require(monitors.last)
        let capture = try await offThePool { try desktop.screen.capture(second, 30, recorder.handlers) }
        let frame = try await offThePool { recorder.waitForFrame(seconds: 10) }
        capture.stop()
        #expect(frame.map { ($0.width, $0.height) } ?? (0, 0) == (800, 600))
    }
}
