import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import DeckTesting
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// `typeText` and `pressKey` through the host's actor with a fake typing sink (PROTOCOL §6 "Text input"): the
/// text cleaned again on arrival, Return only after the text and only when it landed, the special keys, only
/// the viewer may type, a protocol-1 device is told typing needs protocol 2.
@Suite struct TypingTests {
    final class Keyboard: Sendable {
        let events = Mutex<[TypingSink.Event]>([])
        let result: ActionResult
        init(result: ActionResult = .ok) { self.result = result }
        var sink: TypingSink { .fake(result: result) { event in self.events.withLock { $0.append(event) } } }
        var typed: [TypingSink.Event] { events.withLock { $0 } }
    }

    struct Device {
        let harness: HostHarness
        var device: HostHarness.Device

        static func make(_ keyboard: Keyboard, protocolVersion: Int = ProtocolVersion.current) async throws -> Device {
            try await make(sink: keyboard.sink, protocolVersion: protocolVersion)
        }

        static func make(
            sink: TypingSink, protocolVersion: Int = ProtocolVersion.current,
            keypad: @escaping @Sendable (KeypadKey) -> Void = { _ in }
        ) async throws -> Device {
            let desktop = HostDesktop.fake(
                typed: keypad,
                screen: .fake(monitors: [ScreenStreamTests.monitor], pictures: { _ in nil }, started: { _ in }),
                input: .fake { _ in }, typing: sink)
            let harness = try HostHarness(desktop: desktop)
            let credentials = try await harness.pair(name: "iPad")
            let answer = await harness.host.control(ControlRequest(command: .allowScreen, name: "iPad", on: true))
            #expect(answer.error == nil)
            let device = try await authorize(credentials, on: harness, protocolVersion: protocolVersion)
            return Device(harness: harness, device: device)
        }

        /// As `HostHarness.authorize`, saying `protocolVersion` in `hello`.
        static func authorize(
            _ credentials: DeviceCredentials, on harness: HostHarness, protocolVersion: Int
        ) async throws -> HostHarness.Device {
            let id = await harness.open()
            await harness.send(
                .hello(.init(protocolVersion: protocolVersion, name: "x", deviceId: credentials.deviceId)), on: id)
            let auth = try DeviceAuth(credentials: credentials)
            guard case .authChallenge(let challenge) = await harness.send(.authStart(auth.start), on: id).last else {
                throw HostHarness.HarnessError.unexpected
            }
            let (finish, channel) = try auth.receive(challenge)
            var device = HostHarness.Device(
                id: id, channel: channel, link: harness.link, read: harness.link.sent(to: id).count)
            await harness.send(.authFinish(finish), on: id)
            _ = device.inbox()
            return device
        }

        mutating func send(_ message: DeviceMessage) async { await device.send(message, to: harness.host) }

        /// Waits (up to 10 s) for the first host message `pick` accepts.
        mutating func wait<T>(for pick: (HostMessage) -> T?) async -> T? {
            for _ in 0..<2000 {
                if let found = device.inbox().lazy.compactMap(pick).first { return found }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }

        mutating func typed() async -> HostMessage.Typed? {
            await wait { if case .typed(let t) = $0 { t } else { nil } }
        }

        /// Every `typed` until `count` have come (or 10 s passed).
        mutating func typed(count: Int) async -> [HostMessage.Typed] {
            var found: [HostMessage.Typed] = []
            for _ in 0..<2000 where found.count < count {
                found += device.inbox().compactMap { if case .typed(let t) = $0 { t } else { nil } }
                if found.count < count { try? await Task.sleep(for: .milliseconds(5)) }
            }
            return found
        }

        mutating func view() async {
            await send(.startScreen(.init(displayId: ScreenStreamTests.monitor.id, maxSide: 640, fps: 30)))
            #expect(await wait { if case .screenStarted(let s) = $0 { s } else { nil } } != nil)
        }
    }

    @Test func keysStillWaitingWhenViewingEndsAreDroppedNotTyped() async throws {
        let release = AsyncStream<Void>.makeStream()
        let texts = Mutex<[String]>([])
        let sink = TypingSink(
            typeText: { text in
                texts.withLock { $0.append(text) }
                if text == "first" { for await _ in release.stream { break } }
                return .ok
            },
            pressKey: { _ in .ok })
        var device = try await Device.make(sink: sink)
        await device.view()
        await device.send(.typeText(.init(text: "first")))
        await device.send(.typeText(.init(text: "rm -rf ~", enter: true)))
        // The first text is being typed (the sink holds it), the second waits in the lane behind it.
        for _ in 0..<2000 where texts.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        await device.send(.stopScreen(.init()))
        _ = await device.wait { if case .screenStopped(let s) = $0 { s } else { nil } }
        release.continuation.yield()
        let answers = await device.typed(count: 2)
        #expect(answers == [.init(ok: true), .init(ok: false, reason: DeckServer.endedReason)])
        #expect(texts.withLock { $0 } == ["first"])
    }

    @Test func anotherDevicesKeypadKeyGoesBetweenTheTurnsOfALongTextNotAfterIt() async throws {
        let release = AsyncStream<Void>.makeStream()
        let order = Mutex<[String]>([])
        let sink = TypingSink(
            typeText: { text in
                let first = order.withLock {
                    $0.append("text \(text.utf16.count)")
                    return $0.count == 1
                }
                if first { for await _ in release.stream { break } }
                return .ok
            },
            pressKey: { _ in .ok })
        var viewer = try await Device.make(sink: sink) { key in order.withLock { $0.append("keypad \(key)") } }
        await viewer.view()
        await viewer.send(.typeText(.init(text: String(repeating: "a", count: 600))))
        for _ in 0..<2000 where order.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        // The viewer's first turn is being typed (the sink holds it); a second device presses a keypad key.
        let phone = try await viewer.harness.pair(name: "Phone")
        var other = try await Device.authorize(phone, on: viewer.harness, protocolVersion: ProtocolVersion.current)
        await other.send(.keypad(.init(key: .digit7)), to: viewer.harness.host)
        // The key's job asks for its turn a moment after the actor took the message (a task of its own).
        try await Task.sleep(for: .milliseconds(300))
        release.continuation.yield()
        #expect(await viewer.typed() == HostMessage.Typed(ok: true))
        let turns = order.withLock { $0 }
        #expect(turns == ["text 256", "keypad digit7", "text 256", "text 88"], "\(turns)")
    }

    @Test func theViewersTextIsCleanedAgainAndReturnComesAfterIt() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.view()
        await device.send(.typeText(.init(text: "ls -la\r\n안녕\t✓", enter: true)))
        #expect(await device.typed() == HostMessage.Typed(ok: true))
        #expect(keyboard.typed == [.text("ls -la 안녕 ✓"), .key(KeyChord(.returnKey))])
    }

    @Test func withoutEnterNoReturnIsPressed() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.view()
        await device.send(.typeText(.init(text: "café")))
        #expect(await device.typed() == HostMessage.Typed(ok: true))
        #expect(keyboard.typed == [.text("café")])
    }

    @Test func everySpecialKeyReachesTheSinkInOrder() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.view()
        for key in KeyChord.Named.allCases { await device.send(.pressKey(.init(key: key))) }
        let answers = await device.typed(count: KeyChord.Named.allCases.count)
        #expect(answers == Array(repeating: HostMessage.Typed(ok: true), count: KeyChord.Named.allCases.count))
        #expect(keyboard.typed == KeyChord.Named.allCases.map { .key(KeyChord($0)) })
    }

    @Test func aChordReachesTheSinkWithItsModifiers() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.view()
        let save = KeyChord(character: "s", modifiers: [.ctrl])
        await device.send(.pressKey(.init(chord: save)))
        #expect(await device.typed() == HostMessage.Typed(ok: true))
        #expect(keyboard.typed == [.key(save)])
    }

    @Test func aDeviceThatIsNotViewingMayNotType() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.send(.typeText(.init(text: "rm -rf ~", enter: true)))
        #expect(await device.typed() == HostMessage.Typed(ok: false, reason: DeckServer.notViewerReason))
        await device.send(.pressKey(.init(key: .ctrlC)))
        #expect(await device.typed() == HostMessage.Typed(ok: false, reason: DeckServer.notViewerReason))
        #expect(keyboard.typed.isEmpty)
    }

    @Test func afterViewingStopsTypingIsRefused() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard)
        await device.view()
        await device.send(.stopScreen(.init()))
        _ = await device.wait { if case .screenStopped(let s) = $0 { s } else { nil } }
        await device.send(.pressKey(.init(key: .esc)))
        #expect(await device.typed() == HostMessage.Typed(ok: false, reason: DeckServer.notViewerReason))
        #expect(keyboard.typed.isEmpty)
    }

    @Test func aFailedTextIsReportedAndReturnIsNotPressed() async throws {
        let keyboard = Keyboard(result: .failed("no display"))
        var device = try await Device.make(keyboard)
        await device.view()
        await device.send(.typeText(.init(text: "hello", enter: true)))
        #expect(await device.typed() == HostMessage.Typed(ok: false, reason: "no display"))
        #expect(keyboard.typed == [.text("hello")])
    }

    @Test func aProtocolOneDeviceIsToldTypingNeedsProtocolTwo() async throws {
        let keyboard = Keyboard()
        var device = try await Device.make(keyboard, protocolVersion: 1)
        await device.view()
        await device.send(.typeText(.init(text: "hi")))
        let error = await device.wait { if case .error(let e) = $0 { e } else { nil } }
        #expect(error?.code == .unavailable)
        #expect(error?.message == "typeText needs protocol 2; this device said 1")
        #expect(keyboard.typed.isEmpty)
    }
}
