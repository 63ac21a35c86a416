import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckWayland

/// The event batches the uinput back-end writes, read back from pipes standing in for the devices (no kernel
/// needed; UinputKernelTests checks the same against a real one).
struct UinputInputTests {
    static let syn = UinputEvent(0, 0, 0)
    static func key(_ code: Int32, _ value: Int32) -> [UinputEvent] { [UinputEvent(1, code, value), syn] }
    static let us = UinputKeymap.compile(layout: "us")

    static func make(_ pipes: UinputPipes, desktop: PixelRect? = PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        -> UinputInput
    {
        UinputInput(devices: pipes.devices, desktop: { desktop }, keymap: { us }, timing: .immediate)
    }

    static func pixel(_ x: Int, _ y: Int, monitorAt left: Double = 0) -> MonitorPixel {
        MonitorPixel(x: x, y: y, monitor: Rect(x: left, y: 0, width: 640, height: 480))
    }

    @Test func aMoveSetsBothAxesInDesktopPixelsInOneFrame() async throws {
        let pipes = UinputPipes()
        let input = Self.make(pipes)
        try await input.input.movePointer(Self.pixel(100, 50, monitorAt: 1280))
        #expect(pipes.pointerSizes == ["1920x1080"])
        #expect(pipes.pointerEvents() == [UinputEvent(3, 0, 1380), UinputEvent(3, 1, 50), Self.syn])
        try await input.input.movePointer(Self.pixel(5000, -3))
        #expect(pipes.pointerEvents() == [UinputEvent(3, 0, 1919), UinputEvent(3, 1, 0), Self.syn], "clamped")
    }

    @Test func theAxesSpanTheOutputsBoundingBoxFromItsOrigin() async throws {
        let monitors = [
            Monitor(id: 1, name: "left", frame: PixelRect(x: -1280, y: 0, width: 1280, height: 1024)),
            Monitor(id: 2, name: "right", frame: PixelRect(x: 0, y: 0, width: 1920, height: 1080)),
        ]
        let desktop = try #require(UinputInput.desktop(monitors))
        #expect(desktop == PixelRect(x: -1280, y: 0, width: 3200, height: 1080))
        #expect(UinputInput.desktop([]) == nil && UinputInput.desktop(nil) == nil)
        let pipes = UinputPipes()
        try await Self.make(pipes, desktop: desktop).input.movePointer(Self.pixel(10, 1000, monitorAt: -1280))
        #expect(pipes.pointerSizes == ["3200x1080"])
        #expect(pipes.pointerEvents() == [UinputEvent(3, 0, 10), UinputEvent(3, 1, 1000), Self.syn])
    }

    @Test func buttonsAreBTNCodes() async throws {
        let pipes = UinputPipes()
        let input = Self.make(pipes).input
        try await input.setButton(.left, true)
        try await input.setButton(.left, false)
        try await input.setButton(.right, true)
        try await input.setButton(.middle, false)
        #expect(
            pipes.pointerEvents()
                == Self.key(0x110, 1) + Self.key(0x110, 0) + Self.key(0x111, 1) + Self.key(0x112, 0))
    }

    @Test func wheelStepsAreNotchesAnd120HiResUnitsWithUpAndRightPositive() async throws {
        let pipes = UinputPipes()
        let input = Self.make(pipes).input
        try await input.scroll(.down, 3)
        #expect(pipes.pointerEvents() == [UinputEvent(2, 8, -3), UinputEvent(2, 11, -360), Self.syn])
        try await input.scroll(.up, 1)
        #expect(pipes.pointerEvents() == [UinputEvent(2, 8, 1), UinputEvent(2, 11, 120), Self.syn])
        try await input.scroll(.right, 2)
        #expect(pipes.pointerEvents() == [UinputEvent(2, 6, 2), UinputEvent(2, 12, 240), Self.syn])
        try await input.scroll(.left, 1)
        #expect(pipes.pointerEvents() == [UinputEvent(2, 6, -1), UinputEvent(2, 12, -120), Self.syn])
    }

    @Test func aNewDesktopSizeMakesANewPointerAndNoDesktopFails() async throws {
        let pipes = UinputPipes()
        let size = Locked(PixelRect(x: 0, y: 0, width: 800, height: 600))
        let input = UinputInput(
            devices: pipes.devices, desktop: { size.value }, keymap: { nil }, timing: .immediate
        ).input
        try await input.movePointer(Self.pixel(1, 1))
        size.value = PixelRect(x: 0, y: 0, width: 800, height: 600)
        try await input.movePointer(Self.pixel(2, 2))
        #expect(pipes.pointerSizes == ["800x600"], "same size, same device")
        size.value = PixelRect(x: 0, y: 0, width: 1024, height: 768)
        try await input.movePointer(Self.pixel(3, 3))
        #expect(pipes.pointerSizes == ["800x600", "1024x768"] && pipes.olderPointerClosed())
        #expect(pipes.pointerEvents() == [UinputEvent(3, 0, 3), UinputEvent(3, 1, 3), Self.syn])

        let none = UinputInput(devices: pipes.devices, desktop: { nil }, keymap: { nil }, timing: .immediate)
        await #expect(throws: InputSinkError.noDisplay) { try await none.input.movePointer(Self.pixel(1, 1)) }
    }

    @Test func textIsTypedWithTheLayoutsKeysAndShiftHeldForItsLevel() async throws {
        let pipes = UinputPipes()
        #expect(await Self.make(pipes).typing.typeText("Hi!") == .ok)
        let shift: Int32 = 42
        #expect(
            pipes.keyboardEvents()
                == Self.key(shift, 1) + Self.key(35, 1) + Self.key(35, 0) + Self.key(shift, 0)
                + Self.key(23, 1) + Self.key(23, 0)
                + Self.key(shift, 1) + Self.key(2, 1) + Self.key(2, 0) + Self.key(shift, 0))
    }

    @Test func aCharacterTheLayoutLacksFailsTheWholeTextAndTypesNothing() async throws {
        let pipes = UinputPipes()
        let result = await Self.make(pipes).typing.typeText("café")
        guard case .failed(let reason) = result else {
            Issue.record("typed: \(result)")
            return
        }
        #expect(reason.contains("“é”") && reason.contains("U+00E9"), "\(reason)")
        #expect(pipes.keyboardEvents().isEmpty)
    }

    @Test func specialKeysHoldTheirModifiersAndReleaseThemLast() async throws {
        let pipes = UinputPipes()
        let typing = Self.make(pipes).typing
        #expect(await typing.pressKey(KeyChord(.selectAll)) == .ok)
        #expect(pipes.keyboardEvents() == Self.key(29, 1) + Self.key(30, 1) + Self.key(30, 0) + Self.key(29, 0))
        #expect(await typing.pressKey(KeyChord(.shiftTab)) == .ok)
        #expect(pipes.keyboardEvents() == Self.key(42, 1) + Self.key(15, 1) + Self.key(15, 0) + Self.key(42, 0))
        #expect(await typing.pressKey(KeyChord(.returnKey)) == .ok)
        #expect(pipes.keyboardEvents() == Self.key(28, 1) + Self.key(28, 0))
    }

    @Test func keypadKeysAndKeysymTaps() async throws {
        let pipes = UinputPipes()
        let input = Self.make(pipes)
        #expect(await input.keypad.press(.plus) == .ok)  // Shift + the = key on us
        #expect(await input.keypad.press(.backspace) == .ok)
        #expect(
            pipes.keyboardEvents()
                == Self.key(42, 1) + Self.key(13, 1) + Self.key(13, 0) + Self.key(42, 0) + Self.key(14, 1)
                + Self.key(14, 0))
        try await input.input.tapKeysym(0x61)
        #expect(pipes.keyboardEvents() == Self.key(30, 1) + Self.key(30, 0))
        await #expect(throws: InputSinkError.noKey(keysym: 0x20ac)) { try await input.input.tapKeysym(0x20ac) }
    }

    @Test func aFailedWriteReportsItAndTheNextKeyGetsANewDevice() async throws {
        let pipes = UinputPipes()
        pipes.brokenKeyboards = 1
        let typing = Self.make(pipes).typing
        let result = await typing.typeText("a")
        #expect(result == .failed("the input device failed: Bad file descriptor"))
        #expect(await typing.typeText("b") == .ok)
        #expect(pipes.keyboardCount == 1, "one pipe after the broken device")
        #expect(pipes.keyboardEvents() == Self.key(48, 1) + Self.key(48, 0))
    }

    @Test func aMissingNodeIsNotAvailableAndSaysWhy() async {
        #expect(!UinputInput.isAvailable(path: "/nonexistent/uinput"))
        let input = UinputInput(path: "/nonexistent/uinput", display: "touchdeck-no-such-display")
        #expect(
            await input.typing.typeText("a")
                == .failed("cannot create an input device at /nonexistent/uinput: No such file or directory"))
        await #expect(throws: InputSinkError.noDisplay) { try await input.input.setButton(.left, true) }
    }
}

/// A value the test changes while the back-end reads it from its queue.
final class Locked<Value: Sendable>: @unchecked Sendable {  // @unchecked: `value` is only touched under `lock`
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
