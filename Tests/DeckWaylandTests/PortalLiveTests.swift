import DeckScreen
import Foundation
import Testing

@testable import DeckWayland

/// The ScreenCast portal against a private headless sway with xdg-desktop-portal-wlr (`scripts/with-sway`;
/// skipped without it): frames of the GTK client's pattern, the restore token saved 0600 and used by the next
/// start (xdg-desktop-portal-wlr logs "restore data available" when it is).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["TOUCHDECK_SWAY_PID"] != nil))
struct PortalLiveTests {
    var portalLog: String {
        (try? String(contentsOfFile: ProcessInfo.processInfo.environment["TOUCHDECK_XDPW_LOG"] ?? "", encoding: .utf8))
            ?? ""
    }

    @Test func aStartShowsTheScreenAndTheNextOneRestoresTheSessionWithTheSavedToken() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-portal-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = PortalRestoreToken(directory: folder)

        let recorder = FrameRecorder()
        let first = try await offThePool {
            try PortalCapture(bus: SessionBus(), token: token, fps: 30, handlers: recorder.handlers)
        }
        let frame = try await offThePool { recorder.waitForFrame(seconds: 10) }
        first.stop()
        #expect(frame.map { [$0.width, $0.height] } == [1280, 720])
        for (x, y) in [(40, 40), (1000, 120), (600, 680)] {
            #expect(frame?.pixel(x, y) == MutterLiveTests.patternBGR(x: x, y: y), "pixel \(x),\(y)")
        }
        let saved = try #require(token.load(), "no restore token saved")
        let mode = try FileManager.default.attributesOfItem(atPath: token.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!portalLog.contains("restore data available"), "a first start restored a session")

        let again = FrameRecorder()
        let second = try await offThePool {
            try PortalCapture(bus: SessionBus(), token: token, fps: 30, handlers: again.handlers)
        }
        // xdg-desktop-portal-wlr copies the output only once it is damaged: a new window gives the first frame.
        let another = try GTKClient.start()
        defer { another.stop() }
        let restoredFrame = try await offThePool { again.waitForFrame(seconds: 10) }
        second.stop()
        #expect(restoredFrame != nil)
        #expect(portalLog.contains("restore data available"), "the saved token \(saved) was not used")
        #expect(token.load() != nil)
    }
}
