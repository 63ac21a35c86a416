import DeckDesktop
import DeckKit
import Testing

@testable import DeckX11

/// XTest's numbering of buttons and wheel notches, and the sink without a display.
@Suite struct X11InputTests {
    let full = Rect(x: 0, y: 0, width: 1920, height: 1080)

    @Test func x11ButtonsAndWheelNotchesAreTheCoreButtonNumbers() {
        #expect(PointerButton.allCases.map(X11Input.buttonNumber) == [1, 2, 3])
        #expect(ScrollDirection.allCases.map(X11Input.wheelButton) == [4, 5, 6, 7])
    }

    @Test func x11WithoutADisplayThrowsNoDisplay() async {
        let sink = InputSink.x11(display: ":987")
        await #expect(throws: InputSinkError.noDisplay) {
            try await sink.setButton(.left, true)
        }
        await #expect(throws: InputSinkError.noDisplay) {
            try await sink.movePointer(MonitorPixel(x: 0, y: 0, monitor: full))
        }
    }
}
