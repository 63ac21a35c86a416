import CDeckShim
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckWayland

/// The uinput back-end against a real kernel: the devices it creates, the capabilities the kernel reports for
/// them and the events it delivers to readers, as the compositor's libinput would read them. Runs in the guest of
/// `scripts/with-uinput-vm` (Debian's own kernel, which has uinput; `make test-swift` runs it). There is no
/// compositor there, so the desktop's size and the keymap (`us`) are given.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["TOUCHDECK_UINPUT_VM"] == "1",
        "needs a kernel with uinput: run through scripts/with-uinput-vm"))
struct UinputKernelTests {
    static let syn = UinputEvent(0, 0, 0)
    static func key(_ code: Int32, _ value: Int32) -> [UinputEvent] { [UinputEvent(1, code, value), syn] }

    /// A back-end on the kernel's node and its two devices, opened as readers before anything is sent.
    struct Devices {
        let input: UinputInput
        let pointer: EvdevNode
        let keyboard: EvdevNode
    }

    static func open(desktop: Locked<PixelRect>) async throws -> Devices {
        let keymap = UinputKeymap.compile(layout: "us")
        let input = UinputInput(
            devices: .kernel(path: "/dev/uinput"), desktop: { desktop.value }, keymap: { keymap },
            timing: .immediate)
        try await input.open()
        let pointer = try #require(EvdevNode.find(named: "TouchDeck pointer"), "no pointer node")
        let keyboard = try #require(EvdevNode.find(named: "TouchDeck keyboard"), "no keyboard node")
        return Devices(input: input, pointer: pointer, keyboard: keyboard)
    }

    @Test func theKernelReportsAnAbsolutePointerWithWheels() async throws {
        let devices = try await Self.open(desktop: Locked(PixelRect(x: 0, y: 0, width: 1920, height: 1080)))
        let pointer = devices.pointer
        #expect(pointer.codes(0) == [Int(EV_SYN), Int(EV_KEY), Int(EV_REL), Int(EV_ABS)])
        #expect(pointer.codes(EV_KEY) == [0x110, 0x111, 0x112], "BTN_LEFT, RIGHT, MIDDLE; no BTN_TOUCH or tools")
        #expect(pointer.codes(EV_ABS) == [Int(ABS_X), Int(ABS_Y)])
        #expect(pointer.range(ABS_X) == 0...1919 && pointer.range(ABS_Y) == 0...1079)
        #expect(pointer.codes(EV_REL) == [6, 8, 11, 12], "HWHEEL, WHEEL and their hi-res twins")
        let udev = try pointer.udevClassification()
        #expect(udev.contains("ID_INPUT_MOUSE=1"), "udev: \(udev.sorted())")
        let others = ["TABLET", "TOUCHSCREEN", "TOUCHPAD", "JOYSTICK", "KEYBOARD", "KEY"].map { "ID_INPUT_\($0)=1" }
        #expect(udev.isDisjoint(with: others), "a mouse only: \(udev.sorted())")
    }

    @Test func theKernelReportsAKeyboardWithKeys1To248AndNoRepeat() async throws {
        let devices = try await Self.open(desktop: Locked(PixelRect(x: 0, y: 0, width: 800, height: 600)))
        let keyboard = devices.keyboard
        #expect(keyboard.codes(0) == [Int(EV_SYN), Int(EV_KEY)])
        #expect(keyboard.codes(EV_KEY) == Array(1...248))
        let udev = try keyboard.udevClassification()
        #expect(udev.isSuperset(of: ["ID_INPUT_KEYBOARD=1", "ID_INPUT_KEY=1"]), "udev: \(udev.sorted())")
        #expect(!udev.contains("ID_INPUT_MOUSE=1"))
    }

    @Test func pointerEventsArriveAsSent() async throws {
        let devices = try await Self.open(desktop: Locked(PixelRect(x: 0, y: 0, width: 1920, height: 1080)))
        let input = devices.input.input
        try await input.movePointer(MonitorPixel(x: 100, y: 200, monitor: Rect(x: 1280, y: 0, width: 640, height: 480)))
        try await input.setButton(.left, true)
        try await input.setButton(.left, false)
        try await input.scroll(.down, 2)
        try await input.scroll(.right, 1)
        let expected =
            [UinputEvent(3, 0, 1380), UinputEvent(3, 1, 200), Self.syn] + Self.key(0x110, 1) + Self.key(0x110, 0)
            + [UinputEvent(2, 8, -2), UinputEvent(2, 11, -240), Self.syn]
            + [UinputEvent(2, 6, 1), UinputEvent(2, 12, 120), Self.syn]
        #expect(devices.pointer.read(count: expected.count) == expected)
    }

    @Test func textArrivesAsTheLayoutsKeysWithShift() async throws {
        let devices = try await Self.open(desktop: Locked(PixelRect(x: 0, y: 0, width: 1920, height: 1080)))
        #expect(await devices.input.typing.typeText("Hi!") == .ok)
        let shift: Int32 = 42
        let expected =
            Self.key(shift, 1) + Self.key(35, 1) + Self.key(35, 0) + Self.key(shift, 0)
            + Self.key(23, 1) + Self.key(23, 0)
            + Self.key(shift, 1) + Self.key(2, 1) + Self.key(2, 0) + Self.key(shift, 0)
        #expect(devices.keyboard.read(count: expected.count) == expected)
        #expect(await devices.input.typing.typeText("é").isFailure)
        #expect(devices.keyboard.read(count: 1, seconds: 0.3).isEmpty, "a refused text types nothing")
    }

    @Test func aNewDesktopSizeReplacesThePointerDevice() async throws {
        let desktop = Locked(PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        let devices = try await Self.open(desktop: desktop)
        desktop.value = PixelRect(x: 0, y: 0, width: 1024, height: 768)
        try await devices.input.input.movePointer(
            MonitorPixel(x: 5, y: 6, monitor: Rect(x: 0, y: 0, width: 1, height: 1)))
        let new = try #require(EvdevNode.find(named: "TouchDeck pointer"), "no new pointer node")
        #expect(new.range(ABS_X) == 0...1023 && new.range(ABS_Y) == 0...767)
        #expect(devices.pointer.isGone, "the old device was destroyed")
    }
}

extension ActionResult {
    fileprivate var isFailure: Bool { if case .failed = self { true } else { false } }
}
