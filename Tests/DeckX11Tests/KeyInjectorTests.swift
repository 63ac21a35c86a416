import DeckDesktop
import DeckTesting
import Foundation
import Testing

@testable import DeckX11

@Suite struct KeyInjectorTests {
    static let allKeysTyped = "0123456789.+-*/=\r\u{8}"

    @Test(arguments: ["us", "de", "fr"])
    func keypadKeysArriveWhateverTheLayout(layout: String) async throws {
        _ = try LiveDesktop.require("DISPLAY")
        let xvfb = try PrivateXvfb()
        let output = try LiveDesktop.run(["setxkbmap", "-display", xvfb.name, layout])
        #expect(output.isEmpty, "setxkbmap: \(output)")
        let recorder = try #require(KeyRecorderWindow(display: xvfb.name), "cannot open \(xvfb.name)")
        let keys = KeyInjector.x11(display: xvfb.name)
        for key in KeypadKey.allCases {
            #expect(await keys.press(key) == .ok)
        }
        #expect(recorder.read(count: Self.allKeysTyped.count) == Self.allKeysTyped)
        // Again with the spare keycodes already bound.
        #expect(await keys.press(.divide) == .ok)
        #expect(await keys.press(.digit7) == .ok)
        #expect(recorder.read(count: 2) == "/7")
    }

    @Test func noDisplayFailsClearly() async {
        let keys = KeyInjector.x11(display: ":987")
        #expect(await keys.press(.digit1) == .failed("no display"))
        #expect(await keys.press(.enter) == .failed("no display"))
    }

    @Test func everyWireKeyHasAKeysym() {
        let keysyms = KeypadKey.allCases.map(XKeyboard.keysym(for:))
        #expect(Set(keysyms).count == KeypadKey.allCases.count)
        #expect(XKeyboard.keysym(for: .digit0) == 0x30)
        #expect(XKeyboard.keysym(for: .enter) == 0xff0d)
        #expect(XKeyboard.keysym(for: .backspace) == 0xff08)
    }
}
