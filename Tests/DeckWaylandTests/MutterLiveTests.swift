import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckWayland

/// The Mutter back-end against a real headless Mutter: run under `scripts/with-mutter` (the suite is skipped
/// without one). A GTK client (Tests/wayland/gtk_pattern.py) paints a known pattern fullscreen and prints its
/// input events as JSON lines, so the test reads what Mutter really delivered. Waits have generous deadlines.
@Suite(.serialized, .enabled(if: privateMutterOneMonitor)) struct MutterLiveTests {
    /// The pattern's colour at a pixel (Tests/wayland/gtk_pattern.py's pattern_block), as B, G, R bytes.
    static func patternBGR(x: Int, y: Int) -> [UInt8] {
        let (column, row) = (x / 80, y / 80)
        return [
            UInt8(((column + row) * 91 + 60) % 256), UInt8((row * 59 + 40) % 256), UInt8((column * 37 + 20) % 256),
        ]
    }

    @Test func theVirtualMonitorIsListedWithItsConnectorAndSize() async throws {
        let monitors = try await MutterDesktop().screen.monitors()
        #expect(monitors.count == 1)
        #expect(monitors.first?.name == "Meta-0")
        #expect(monitors.first?.frame == PixelRect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func aCaptureDeliversThePatternAndStopsCleanly() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let desktop = MutterDesktop()
        let monitor = try #require(try await desktop.screen.monitors().first)
        let recorder = FrameRecorder()
        let capture = try await offThePool { try desktop.screen.capture(monitor, 30, recorder.handlers) }
        let frame = try #require(try await offThePool { recorder.waitForFrame(seconds: 10) })
        capture.refresh()
        let again = try await offThePool { recorder.waitForFrame(seconds: 10, after: 1) }
        capture.stop()
        let framesAtStop = recorder.count
        #expect((frame.width, frame.height) == (1280, 720))
        #expect(frame.format == .bgrx || frame.format == .bgra)
        // Block centres away from the cursor (Mutter draws it in where the pointer is).
        for (x, y) in [(40, 40), (1000, 120), (600, 680), (1240, 400)] {
            #expect(frame.pixel(x, y) == Self.patternBGR(x: x, y: y), "pixel \(x),\(y)")
        }
        #expect(again != nil, "refresh() brought no frame on a still screen")
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.count == framesAtStop, "a frame came after stop()")
    }

    @Test func aThumbnailGrabLooksThroughAScreenCastSessionAlone() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let desktop = MutterDesktop()
        let monitor = try #require(try await desktop.screen.monitors().first)
        let image = try await desktop.screen.grab(monitor)
        #expect((image.width, image.height) == (1280, 720))
        let at = 120 * image.stride + 1000 * 4
        #expect(Array(image.pixels[at..<at + 3]) == Self.patternBGR(x: 1000, y: 120))
        let sessions = try await offThePool { try Self.remoteDesktopSessions() }
        #expect(sessions.isEmpty, "a grab opened a remote-desktop session: \(sessions)")
        // The same check sees the session of a capture for viewing (which takes input too).
        let capture = try await offThePool { try desktop.screen.capture(monitor, 30, FrameRecorder().handlers) }
        let during = try await offThePool { try Self.remoteDesktopSessions() }
        capture.stop()
        #expect(during.count == 1, "\(during)")
    }

    /// The RemoteDesktop sessions Mutter has open now (its object tree, through gdbus).
    static func remoteDesktopSessions() throws -> [String] {
        let introspect = Process()
        introspect.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        introspect.arguments = [
            "introspect", "--session", "--dest", "org.gnome.Mutter.RemoteDesktop", "--object-path",
            "/org/gnome/Mutter/RemoteDesktop/Session", "--only-properties",
        ]
        let output = Pipe()
        introspect.standardOutput = output
        introspect.standardError = FileHandle.nullDevice
        try introspect.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for _ in 0..<500 where introspect.isRunning { usleep(10_000) }
        return text.split(separator: "\n").filter { $0.contains("node ") && !$0.contains("/Session {") }.map(
            String.init)
    }

    @Test func aSessionMutterEndsEndsTheCaptureOnce() async throws {
        let desktop = MutterDesktop()
        let monitor = try #require(try await desktop.screen.monitors().first)
        let recorder = FrameRecorder()
        let capture = try await offThePool {
            try MutterCapture(
                desktop: desktop, bus: SessionBus(), monitor: monitor, fps: 30, handlers: recorder.handlers)
        }
        #expect(try await offThePool { recorder.waitForFrame(seconds: 10) } != nil)
        // What Mutter does when its session ends (monitor gone, shell restarting): the stream's node goes away.
        capture.session.stop()
        let ended = try await offThePool { recorder.waitForEnd(seconds: 10) }
        #expect(ended != nil, "the capture never reported its end")
        capture.stop()
        #expect(recorder.ends == 1)
    }

    /// Mutter paints one picture when a stream starts and then only on damage; when that one is lost (it drops a
    /// paint that follows a cursor-only buffer too closely, seen on a loaded machine) a still screen must still
    /// come through: the stream asks again. Here the first two pictures are treated as lost.
    @Test func aStillScreenWhoseFirstPicturesAreLostIsStillSeen() async throws {
        let desktop = MutterDesktop()
        let monitor = try #require(try await desktop.screen.monitors().first)
        let recorder = FrameRecorder()
        let capture = try await offThePool {
            try MutterCapture(
                desktop: desktop, bus: SessionBus(), monitor: monitor, fps: 30, handlers: recorder.handlers,
                losesPictures: 2)
        }
        defer { capture.stop() }
        let frame = try #require(try await offThePool { recorder.waitForFrame(seconds: 10) })
        #expect((frame.width, frame.height) == (1280, 720))
    }

    @Test func keysWithoutAViewerUseASessionThatClosesWhenIdle() async throws {
        let desktop = MutterDesktop(inputIdle: 0.3)
        try await desktop.input.tapKeysym(0xffe1)
        #expect(desktop.hasInputOnlySession)
        await #expect(throws: InputSinkError.noDisplay) {
            try await desktop.input.movePointer(
                MonitorPixel(x: 1, y: 1, monitor: Rect(x: 0, y: 0, width: 10, height: 10)))
        }
        #expect(desktop.hasInputOnlySession, "no stream is no reason to drop the session")
        #expect(try await offThePool { Self.closesWhenIdle(desktop) }, "the idle input-only session stayed open")
    }

    /// Waits (5 s at most) until the desktop's input-only session closed; whether it did.
    static func closesWhenIdle(_ desktop: MutterDesktop) -> Bool {
        for _ in 0..<100 where desktop.hasInputOnlySession { usleep(50_000) }
        return !desktop.hasInputOnlySession
    }

    @Test func clicksLandAtTheStreamCoordinatesAndKeysArriveOrFailWithAReason() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let desktop = MutterDesktop()
        let monitor = try #require(try await desktop.screen.monitors().first)
        let recorder = FrameRecorder()
        let capture = try await offThePool { try desktop.screen.capture(monitor, 30, recorder.handlers) }
        defer { capture.stop() }
        let input = desktop.input
        let rect = deckKitRect(monitor)
        // The headless seat gets a pointer and a keyboard only with the session's virtual devices; the client
        // binds them a moment later and misses what comes before. Move until it sees the pointer enter, then
        // tap Shift until it sees a key (each wait bounded; no assertion depends on how long it took).
        var entered = false
        for step in 0..<100 where !entered {
            try await input.movePointer(MonitorPixel(x: 5 + step % 20, y: 5, monitor: rect))
            entered = try await offThePool { client.wait(seconds: 0.1, for: { $0.event == "enter" }) != nil }
        }
        var keyed = false
        for _ in 0..<100 where !keyed {
            try await input.tapKeysym(0xffe1)
            keyed = try await offThePool { client.wait(seconds: 0.1, for: { $0.event == "key-release" }) != nil }
        }
        #expect(entered && keyed, "the client never got the session's pointer or keyboard")
        let mark = client.count
        try await input.movePointer(MonitorPixel(x: 321, y: 234, monitor: rect))
        try await input.setButton(.left, true)
        try await input.setButton(.left, false)
        try await input.movePointer(MonitorPixel(x: 1001, y: 602, monitor: rect))
        try await input.setButton(.right, true)
        try await input.setButton(.right, false)
        try await input.scroll(.down, 2)
        var refused: [UInt32: InputSinkError] = [:]
        for keysym: UInt32 in [0x61, 0x41, 0xff0d, 0x20ac, 0xe9] {  // a, A, Return, EuroSign, eacute
            do { try await input.tapKeysym(keysym) } catch let error as InputSinkError { refused[keysym] = error }
        }
        try await input.tapKeysym(0x7a)  // z: the last event, so the client has had all before it
        let last = try await offThePool {
            client.wait(seconds: 20, from: mark) { $0.event == "key-release" && $0.keyval == 0x7a }
        }
        #expect(last != nil, "the last key (z) never arrived")
        let events = client.events(since: mark)
        let presses = events.filter { $0.event == "press" }.map { [$0.button ?? 0, $0.x ?? -1, $0.y ?? -1] }
        #expect(presses == [[1, 321, 234], [3, 1001, 602]])
        #expect(
            events.contains { $0.event == "scroll" && ($0.direction == 1 || ($0.direction == 4 && ($0.dy ?? 0) > 0)) })
        #expect(!events.contains { $0.event == "scroll" && ($0.direction == 0 || ($0.dy ?? 0) < 0) }, "scrolled up")
        let typed = events.filter { $0.event == "key-press" }.compactMap(\.keyval)
        for keysym: UInt32 in [0x61, 0x41, 0xff0d, 0x20ac, 0xe9] {
            if let error = refused[keysym] {
                #expect(error == .noKey(keysym: keysym))
                #expect(!typed.contains(Int(keysym)))
            } else {
                #expect(typed.contains(Int(keysym)), "keysym \(String(keysym, radix: 16)) neither arrived nor failed")
            }
        }
        #expect(refused[0x61] == nil && refused[0xff0d] == nil, "keys of the layout must type")

        // The cursor (stream metadata, drawn in by the host) shows where the pointer is: pixels right and below
        // its hotspot differ from the pattern there.
        let framesBefore = recorder.count
        try await input.movePointer(MonitorPixel(x: 600, y: 300, monitor: rect))
        var drawn = false
        for index in framesBefore..<(framesBefore + 30) where !drawn {
            guard let frame = try await offThePool({ recorder.waitForFrame(seconds: 5, after: index) }) else { break }
            drawn = (0..<8).contains { step in
                frame.pixel(602 + step, 304 + step) != Self.patternBGR(x: 602 + step, y: 304 + step)
            }
        }
        #expect(drawn, "no cursor at 600,300 in the stream")
        print(
            "Mutter refused keysyms: \(refused.keys.map { String($0, radix: 16) }.sorted()); the client saw:\n\(events.map(\.description).joined(separator: "\n"))"
        )
    }

    // MARK: Typing (MutterDesktop.typing): the GTK client prints each key with its keyval, text and modifiers.

    /// GdkModifierType bits.
    static let shiftMask = 1 << 0
    static let controlMask = 1 << 2

    /// Taps Shift until the client sees a key: the headless seat gets its keyboard only with the session's
    /// virtual devices, and the client binds it a moment later (each wait bounded).
    static func keyboardReady(_ desktop: MutterDesktop, _ client: GTKClient) async throws -> Bool {
        for _ in 0..<100 {
            try await desktop.input.tapKeysym(WaylandStrokes.shiftL)
            if try await offThePool({ client.wait(seconds: 0.1, for: { $0.event == "key-release" }) != nil }) {
                return true
            }
        }
        return false
    }

    @Test func textSpecialKeysAndAMissingCharacterReachTheClientOrFailByName() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let desktop = MutterDesktop(inputIdle: 0.3)
        #expect(try await Self.keyboardReady(desktop, client), "the client never got the session's keyboard")
        let mark = client.count
        let typing = desktop.typing
        #expect(await typing.typeText("Hi, €5 ~ok") == .ok)
        #expect(await typing.pressKey(KeyChord(.selectAll)) == .ok)
        #expect(await typing.pressKey(KeyChord(.shiftTab)) == .ok)
        #expect(await typing.pressKey(KeyChord(.esc)) == .ok)
        let refused = await typing.typeText("café")
        #expect(await typing.pressKey(KeyChord(.returnKey)) == .ok)  // the last key: the client has had all before it
        let last = try await offThePool {
            client.wait(seconds: 20, from: mark) { $0.event == "key-release" && $0.keyval == 0xff0d }
        }
        #expect(last != nil, "Return never arrived")
        let presses = client.events(since: mark).filter { $0.event == "key-press" }
        let seen = presses.map { "\($0.description) text \($0.text ?? "") state \($0.state ?? -1)" }
        print("the client saw:\n\(seen.joined(separator: "\n"))")

        // The characters, in order (modifier keys themselves type no text).
        let text = presses.compactMap(\.text).joined()
        #expect(text.hasPrefix("Hi, €5 ~ok"), "typed \(text)")
        // Ctrl+A: an `a` with Control held; Shift+Tab: Tab (ISO_Left_Tab under Shift) with Shift held.
        #expect(presses.contains { $0.keyval == 0x61 && ($0.state ?? 0) & Self.controlMask != 0 })
        #expect(presses.contains { [0xff09, 0xfe20].contains($0.keyval) && ($0.state ?? 0) & Self.shiftMask != 0 })
        #expect(presses.contains { $0.keyval == 0xff1b })
        // Nothing of "café" was typed and the failure names the character.
        #expect(!presses.contains { $0.keyval == 0x63 || $0.keyval == 0xe9 }, "part of café was typed")
        #expect(refused == .failed(WaylandStrokes.cannotType(WaylandStrokes.text("é")[0])), "\(refused)")
        #expect(try await offThePool { Self.closesWhenIdle(desktop) }, "the idle input-only session stayed open")
        // Return came after Escape and nothing came between with modifiers stuck.
        let afterEsc = presses.drop { $0.keyval != 0xff1b }.dropFirst()
        #expect(afterEsc.map(\.keyval) == [0xff0d], "\(afterEsc.map(\.description))")
        #expect(afterEsc.allSatisfy { ($0.state ?? 0) & (Self.shiftMask | Self.controlMask) == 0 })
    }

    /// A deck's hotkeys through the same typing: Ctrl+Shift+T (the key that types t, with both held) and a Super
    /// chord arrive in the client with their modifiers down, and nothing stays held after.
    @Test func hotkeyChordsArriveWithTheirModifiersHeld() async throws {
        let client = try GTKClient.start()
        defer { client.stop() }
        let desktop = MutterDesktop(inputIdle: 0.3)
        #expect(try await Self.keyboardReady(desktop, client), "the client never got the session's keyboard")
        let mark = client.count
        let typing = desktop.typing
        let newTab = try #require(KeyChord(name: "t", modifiers: [.ctrl, .shift]))
        let superE = try #require(KeyChord(name: "e", modifiers: [.superKey]))
        #expect(await typing.pressKey(newTab) == .ok)
        #expect(await typing.pressKey(superE) == .ok)
        #expect(await typing.pressKey(KeyChord(.returnKey)) == .ok)
        let last = try await offThePool {
            client.wait(seconds: 20, from: mark) { $0.event == "key-release" && $0.keyval == 0xff0d }
        }
        #expect(last != nil, "Return never arrived")
        let presses = client.events(since: mark).filter { $0.event == "key-press" }
        let both = Self.shiftMask | Self.controlMask
        #expect(presses.contains { [0x74, 0x54].contains($0.keyval) && ($0.state ?? 0) & both == both }, "\(presses)")
        // Super: e while it was held (GDK's Super or Mod4 bit; Mutter keeps the Super key's own press to itself).
        #expect(presses.contains { $0.keyval == 0x65 && ($0.state ?? 0) & Self.superMasks != 0 }, "\(presses)")
        let returnKey = presses.last { $0.keyval == 0xff0d }
        #expect(returnKey.map { ($0.state ?? 0) & (both | Self.superMasks) == 0 } == true, "a modifier stayed down")
    }

    /// GDK's Super bit, and Mod4 (where X-style keymaps put Super).
    static let superMasks = 1 << 26 | 1 << 6
}
