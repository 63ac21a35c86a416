import DeckDesktop
import DeckKit
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

    /// xdg-desktop-portal-wlr casts monitors only: read off the real portal, a desktop like it without sway is not
    /// offered the portal's virtual monitors (`scripts/with-sway` with SWAY_FAKE_VIRTUAL puts a portal back-end that
    /// has them in its place: skipped then).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TOUCHDECK_FAKE_VIRTUAL"] == nil))
    func theRealPortalsSourceTypesAreReadAndHaveNoVirtualSource() throws {
        let types = try #require(PortalDesktop.screenCastSourceTypes(), "the ScreenCast portal did not answer")
        #expect(types & PortalSession.monitorSource != 0, "\(types)")
        #expect(types & PortalSession.virtualSource == 0, "\(types)")
        #expect(PortalVirtualMonitors.unavailable() == PortalDesktop.noExtendReason)
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

    /// A cast of an output where nothing changes sends no picture (xdg-desktop-portal-wlr copies only a damaged
    /// output; the second start above needs a new window for its first). Given a still source, the stream shows the
    /// screencopy of the output instead, the pattern where it is, within a second.
    @Test func aStillOutputIsShownFromItsScreencopyUntilTheCastSendsAPicture() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-still-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = PortalRestoreToken(directory: folder)
        // A first cast takes the window's paint, so the output has nothing new for the next.
        let painted = FrameRecorder()
        let first = try await offThePool {
            try PortalCapture(bus: SessionBus(), token: token, fps: 30, handlers: painted.handlers)
        }
        _ = try await offThePool { painted.waitForFrame(seconds: 10) }
        try await Task.sleep(for: .seconds(1))  // the window's last paints
        first.stop()

        #expect(StillPicture(output: "HEADLESS-9") == nil, "an output sway does not have")
        let monitor = try #require(WaylandOutputs.current()?.first { $0.name == "HEADLESS-1" })
        let recorder = FrameRecorder()
        let still = try await offThePool {
            try PortalCapture(
                bus: SessionBus(), token: token, fps: 30, handlers: recorder.handlers,
                still: { PortalDesktop.still(of: monitor) })
        }
        let frame = try await offThePool { recorder.waitForFrame(seconds: 5) }
        still.stop()
        #expect(frame.map { [$0.width, $0.height] } == [1280, 720])
        for (x, y) in [(40, 40), (1000, 120), (600, 680)] {
            #expect(frame?.pixel(x, y) == MutterLiveTests.patternBGR(x: x, y: y), "pixel \(x),\(y)")
        }
    }

    // MARK: wlroots' virtual pointer and keyboard (WlrInput), into the GTK client under sway.

    @Test func theVirtualPointerLandsExactlyAndTheVirtualKeyboardTypesAnyCharacter() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        #expect(WlrInput.isAvailable())
        let wlr = WlrInput()
        let monitor = try #require(WaylandOutputs.current()?.first)
        let rect = deckKitRect(monitor)
        let input = wlr.input
        // The client learns of the new virtual devices a moment after they appear: move until it sees the pointer
        // enter (each wait bounded; no assertion depends on how long it took).
        var entered = false
        for step in 0..<100 where !entered {
            try await input.movePointer(MonitorPixel(x: 5 + step % 20, y: 5, monitor: rect))
            entered = try await offThePool { client.wait(seconds: 0.1, for: { $0.event == "enter" }) != nil }
        }
        #expect(entered, "the pointer never entered the client")
        let mark = client.count
        try await input.movePointer(MonitorPixel(x: 321, y: 234, monitor: rect))
        try await input.setButton(.left, true)
        try await input.setButton(.left, false)
        try await input.movePointer(MonitorPixel(x: 1001, y: 602, monitor: rect))
        try await input.setButton(.right, true)
        try await input.setButton(.right, false)
        try await input.scroll(.down, 2)
        let typing = wlr.typing
        #expect(await typing.typeText("Hé€ 한👍") == .ok)
        #expect(await typing.pressKey(KeyChord(.selectAll)) == .ok)
        #expect(await wlr.keypad.press(.digit7) == .ok)
        #expect(await typing.pressKey(KeyChord(.returnKey)) == .ok)
        let last = try await offThePool {
            client.wait(seconds: 20, from: mark) { $0.event == "key-release" && $0.keyval == 0xff0d }
        }
        #expect(last != nil, "Return never arrived")
        let events = client.events(since: mark)
        let presses = events.filter { $0.event == "press" }.map { [$0.button ?? 0, $0.x ?? -1, $0.y ?? -1] }
        #expect(presses == [[1, 321, 234], [3, 1001, 602]])
        #expect(events.contains { $0.event == "scroll" && ($0.direction == 1 || ($0.dy ?? 0) > 0) })
        let keys = events.filter { $0.event == "key-press" }
        let text = keys.filter { ($0.state ?? 0) & 4 == 0 && $0.keyval != 0xff0d }.compactMap(\.text).joined()
        #expect(text == "Hé€ 한👍7", "\(keys.map { "\($0.description) \($0.text ?? "") \($0.state ?? -1)" })")
        #expect(keys.contains { $0.keyval == 0x61 && ($0.state ?? 0) & 4 != 0 }, "no Ctrl+A")
    }

    /// A deck's hotkeys through wlroots' virtual keyboard: Ctrl+Shift+T and a Super chord arrive with their
    /// modifiers down, and nothing stays held after.
    @Test func hotkeyChordsArriveWithTheirModifiersHeld() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let wlr = WlrInput()
        let typing = wlr.typing
        // The client learns of the new virtual keyboard a moment after it appears: a Return until it sees one
        // (each wait bounded; no assertion depends on how long it took).
        var ready = false
        for _ in 0..<50 where !ready {
            _ = await typing.pressKey(KeyChord(.returnKey))
            ready = try await offThePool { client.wait(seconds: 0.1, for: { $0.event == "key-press" }) != nil }
        }
        #expect(ready, "the client never got the virtual keyboard")
        let mark = client.count
        let newTab = try #require(KeyChord(name: "t", modifiers: [.ctrl, .shift]))
        let superE = try #require(KeyChord(name: "e", modifiers: [.superKey]))
        #expect(await typing.pressKey(newTab) == .ok)
        #expect(await typing.pressKey(superE) == .ok)
        #expect(await typing.pressKey(KeyChord(.esc)) == .ok)
        let last = try await offThePool {
            client.wait(seconds: 20, from: mark) { $0.event == "key-release" && $0.keyval == 0xff1b }
        }
        #expect(last != nil, "Escape never arrived")
        let presses = client.events(since: mark).filter { $0.event == "key-press" }
        let shiftControl = 1 | 4
        let superMasks = 1 << 26 | 1 << 6
        #expect(
            presses.contains { [0x74, 0x54].contains($0.keyval) && ($0.state ?? 0) & shiftControl == shiftControl })
        let seen = presses.map { "\($0.keyval ?? -1) state \($0.state ?? -1)" }
        #expect(presses.contains { $0.keyval == 0x65 && ($0.state ?? 0) & superMasks != 0 }, "\(seen)")
        let escape = presses.last { $0.keyval == 0xff1b }
        #expect(escape.map { ($0.state ?? 0) & (shiftControl | superMasks) == 0 } == true, "a modifier stayed down")
    }
}
