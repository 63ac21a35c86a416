import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import DeckSound
import DeckTesting
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// Screen viewing through the host's actor with a fake capture the test drives and a fake input sink, with
/// real crypto and the real x264 (PROTOCOL §6 "Screen", §7 "Video"): keyframes on join and on request, the
/// send gate, fps changes, access, and the one stop path.
@Suite struct ScreenStreamTests {
    static let monitor = Monitor(id: 5, name: "HDMI-1", frame: PixelRect(x: 100, y: 0, width: 640, height: 360))

    /// The capture the host started last, and every input action it performed.
    final class Desk: Sendable {
        let captures = Mutex<[FakeCapture]>([])
        let actions = Mutex<[InputAction]>([])
        let locked = Mutex(false)
        /// What the screen source answers to `needsApproval`.
        let approval = Mutex(false)
        let sound = Mutex(SoundSource.none)

        var desktop: HostDesktop {
            var screen = ScreenSource.fake(
                monitors: [ScreenStreamTests.monitor], pictures: { _ in nil },
                started: { capture in self.captures.withLock { $0.append(capture) } })
            screen.needsApproval = { _ in self.approval.withLock { $0 } }
            return .fake(
                screen: screen,
                input: .fake { action in self.actions.withLock { $0.append(action) } },
                isLocked: { self.locked.withLock { $0 } }, sound: sound.withLock { $0 })
        }

        var capture: FakeCapture? { captures.withLock { $0.last } }
    }

    struct Viewer {
        let harness: HostHarness
        let desk: Desk
        var device: HostHarness.Device
        let credentials: DeviceCredentials
        var opened = 0

        /// A paired device allowed to view, authorized.
        static func make(desk: Desk = Desk(), name: String = "iPad") async throws -> Viewer {
            let harness = try HostHarness(desktop: desk.desktop)
            let credentials = try await harness.pair(name: name)
            let device = try await harness.authorize(credentials)
            let answer = await harness.host.control(ControlRequest(command: .allowScreen, name: name, on: true))
            #expect(answer.error == nil)
            return Viewer(harness: harness, desk: desk, device: device, credentials: credentials)
        }

        var host: DeckServer { harness.host }

        mutating func send(_ message: DeviceMessage) async { await device.send(message, to: host) }

        /// Waits (up to 10 s) for the first host message `pick` accepts.
        mutating func wait<T>(for pick: (HostMessage) -> T?) async -> T? {
            for _ in 0..<2000 {
                if let found = device.inbox().lazy.compactMap(pick).first { return found }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }

        mutating func stopped() async -> HostMessage.ScreenStopped.Reason? {
            await wait { message -> HostMessage.ScreenStopped.Reason? in
                if case .screenStopped(let s) = message { s.reason } else { nil }
            }
        }

        mutating func denied() async -> HostMessage.ScreenDenied? {
            await wait { message -> HostMessage.ScreenDenied? in
                if case .screenDenied(let d) = message { d } else { nil }
            }
        }

        mutating func start(fps: Int = 60) async -> HostMessage.ScreenStarted? {
            await send(.startScreen(.init(displayId: ScreenStreamTests.monitor.id, maxSide: 640, fps: fps)))
            return await wait { if case .screenStarted(let s) = $0 { s } else { nil } }
        }

        /// The video packets the device received so far and has not read, opened.
        mutating func packets() throws -> [VideoPacket] {
            let sealed = harness.link.binary(to: device.id).dropFirst(opened)
            opened += sealed.count
            return try sealed.map { data in
                let inner = try device.channel.openBinary(data)
                return try #require(VideoPacket(decoding: inner))
            }
        }
    }

    @Test func aStartTheComputersUserMustApproveIsPendingFirstThenStarts() async throws {
        let desk = Desk()
        desk.approval.withLock { $0 = true }
        var viewer = try await Viewer.make(desk: desk)
        #expect(await Self.screenAnswers(&viewer) == ["screenPending", "screenStarted"])
        // Approved (the token saved): the next start is not pending.
        desk.approval.withLock { $0 = false }
        await viewer.send(.stopScreen(.init()))
        #expect(await viewer.stopped() == .requested)
        #expect(await Self.screenAnswers(&viewer) == ["screenStarted"])
    }

    /// Sends `startScreen` and collects the types of the screen answers until one that ends the wait (10 s at
    /// most); `screenPending` carries `approval`.
    static func screenAnswers(_ viewer: inout Viewer) async -> [String] {
        await viewer.send(.startScreen(.init(displayId: monitor.id, maxSide: 640, fps: 30)))
        var seen: [String] = []
        for _ in 0..<2000 where !seen.contains(where: { $0 != "screenPending" }) {
            for message in viewer.device.inbox() {
                switch message {
                case .screenPending(let pending):
                    #expect(pending.reason == .approval)
                    seen.append(message.type)
                case .screenStarted, .screenDenied: seen.append(message.type)
                default: break
                }
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return seen
    }

    /// A frame that differs from the one before it, so x264 has something to send.
    static func frame(_ n: Int) -> ScreenImage {
        .solid(width: 640, height: 360, blue: UInt8(n * 37 % 256), green: UInt8(n * 11 % 256), red: 90)
    }

    @Test func theFirstFrameIsAKeyframeWithItsParameterSetsAndLaterOnesAreNot() async throws {
        var viewer = try await Viewer.make()
        let started = try #require(await viewer.start())
        #expect(started == HostMessage.ScreenStarted(displayId: 5, width: 640, height: 360, fps: 60, audio: false))
        let capture = try #require(viewer.desk.capture)
        #expect(capture.monitor == Self.monitor && capture.fpsHistory == [60])
        for n in 0..<3 { capture.deliver(Self.frame(n)) }
        let packets = try viewer.packets()
        #expect(packets.map(\.keyframe) == [true, false, false])
        #expect(packets[0].parameterSets.count == 2)  // SPS, PPS
        #expect(packets.allSatisfy { $0.timing != nil })
    }

    @Test func nothingIsSentWhileTheCaptureDeliversNothing() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        let capture = try #require(viewer.desk.capture)
        capture.deliver(Self.frame(0))
        #expect(try viewer.packets().count == 1)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try viewer.packets().isEmpty)  // the pipeline has no timer of its own
    }

    @Test func requestKeyframeMakesTheNextFrameAKeyframeAndAsksAStillScreenForOne() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        let capture = try #require(viewer.desk.capture)
        capture.deliver(Self.frame(0))
        capture.deliver(Self.frame(1))
        await viewer.send(.requestKeyframe(.init()))
        #expect(capture.refreshCount == 1)
        capture.deliver(Self.frame(2))
        capture.deliver(Self.frame(3))
        #expect(try viewer.packets().map(\.keyframe) == [true, false, true, false])
    }

    @Test func framesBeyondTheLimitAreDroppedUntilAKeyframeGetsThrough() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start(fps: 60))  // 4 in flight
        let capture = try #require(viewer.desk.capture)
        viewer.harness.link.hold()
        for n in 0..<7 { capture.deliver(Self.frame(n)) }
        #expect(try viewer.packets().count == 4)
        #expect(capture.refreshCount == 0)
        viewer.harness.link.release()
        // Room again, a keyframe owed, the screen still: the capture is asked for a frame.
        #expect(capture.refreshCount >= 1)
        capture.deliver(Self.frame(7))
        capture.deliver(Self.frame(8))
        #expect(try viewer.packets().map(\.keyframe) == [true, false])
    }

    @Test func anFPSChangeKeepsTheFramesInFlightCounted() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start(fps: 60))
        let capture = try #require(viewer.desk.capture)
        viewer.harness.link.hold()
        capture.deliver(Self.frame(0))
        capture.deliver(Self.frame(1))
        await viewer.send(.screenOptions(.init(fps: 30, audio: false)))  // limit 2, and 2 are still out
        #expect(capture.fpsHistory == [60, 30])
        capture.deliver(Self.frame(2))
        #expect(try viewer.packets().count == 2)
        viewer.harness.link.release()
        capture.deliver(Self.frame(3))
        #expect(try viewer.packets().map(\.keyframe) == [true])
    }

    @Test func stopScreenReleasesAHeldButtonAndSaysRequested() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        await viewer.send(.pointer(.init(kind: .down, x: 0.5, y: 0.5)))
        await viewer.send(.stopScreen(.init()))
        let stopped = await viewer.stopped()
        #expect(stopped == .requested)
        let capture = try #require(viewer.desk.capture)
        for _ in 0..<200 where !capture.isStopped { try await Task.sleep(for: .milliseconds(5)) }
        #expect(capture.isStopped)
        let actions = await settledActions(viewer.desk)
        #expect(actions.contains(.button(.left, pressed: true)))
        #expect(actions.last == .button(.left, pressed: false))
    }

    @Test func aClosedConnectionEndsViewingAndReleasesTheButton() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        await viewer.send(.pointer(.init(kind: .down, x: 0.25, y: 0.75)))
        await viewer.host.handle(.closed(viewer.device.id))
        let actions = await settledActions(viewer.desk)
        #expect(actions.last == .button(.left, pressed: false))
        let status = await viewer.host.control(ControlRequest(command: .status))
        #expect(status.viewer == nil)
    }

    @Test func disconnectViewerEndsItWithEnded() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        let status = await viewer.host.control(ControlRequest(command: .status))
        #expect(status.viewer == "iPad (monitor HDMI-1, 640x360 at 60 fps)")
        let answer = await viewer.host.control(ControlRequest(command: .disconnectViewer))
        #expect(answer.ok && answer.viewer == "iPad")
        #expect(await viewer.stopped() == .ended)
        let again = await viewer.host.control(ControlRequest(command: .disconnectViewer))
        #expect(again.error == "nobody is viewing the screen")
    }

    @Test func aClickLandsOnTheMonitorsPixel() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        await viewer.send(.pointer(.init(kind: .click, x: 0.25, y: 0.75)))
        let actions = await settledActions(viewer.desk)
        let monitor = Rect(Self.monitor.frame)
        #expect(actions.first == .move(MonitorPixel(x: 160, y: 270, monitor: monitor)))
        #expect(Array(actions.dropFirst()) == [.button(.left, pressed: true), .button(.left, pressed: false)])
    }

    @Test func pointerMessagesFromADeviceNotViewingDoNothing() async throws {
        var viewer = try await Viewer.make()
        await viewer.send(.pointer(.init(kind: .click, x: 0.5, y: 0.5)))
        try await Task.sleep(for: .milliseconds(100))
        #expect(viewer.desk.actions.withLock { $0 }.isEmpty)
    }

    @Test func accessIsDecidedInOrder() async throws {
        // Not allowed: refused before the desktop is asked anything.
        var stranger = try await Viewer.make()
        _ = await stranger.host.control(ControlRequest(command: .allowScreen, name: "iPad", on: false))
        await stranger.send(.startScreen(.init(displayId: 5, maxSide: 640)))
        #expect(await stranger.denied() == .init(reason: .notAllowed))
        #expect(stranger.desk.capture == nil)

        // Locked.
        var viewer = try await Viewer.make()
        viewer.desk.locked.withLock { $0 = true }
        await viewer.send(.startScreen(.init(displayId: 5, maxSide: 640)))
        #expect(await viewer.denied() == .init(reason: .locked))
        viewer.desk.locked.withLock { $0 = false }

        // Busy, naming the viewer; then the same device on a new connection resumes and the old one is told.
        _ = try #require(await viewer.start())
        let credentials = try await viewer.harness.pair(name: "Phone")
        _ = await viewer.host.control(ControlRequest(command: .allowScreen, name: "Phone", on: true))
        var phone = try await viewer.harness.authorize(credentials)
        await phone.send(.startScreen(.init(displayId: 5, maxSide: 640)), to: viewer.host)
        var busy: HostMessage.ScreenDenied?
        for _ in 0..<2000 where busy == nil {
            busy = phone.inbox().lazy.compactMap { if case .screenDenied(let d) = $0 { d } else { nil } }.first
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(busy == .init(reason: .busy, viewer: "iPad"))
    }

    @Test func theSameDeviceOnAnotherConnectionResumesAndTheOldOneIsToldReplaced() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        let first = try #require(viewer.desk.capture)
        var again = try await viewer.harness.authorize(viewer.credentials)
        await again.send(.startScreen(.init(displayId: 5, maxSide: 320, fps: 30)), to: viewer.host)
        var started: HostMessage.ScreenStarted?
        for _ in 0..<2000 where started == nil {
            started = again.inbox().lazy.compactMap { if case .screenStarted(let s) = $0 { s } else { nil } }.first
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(started == HostMessage.ScreenStarted(displayId: 5, width: 320, height: 180, fps: 30, audio: false))
        #expect(await viewer.stopped() == .replaced)
        for _ in 0..<200 where !first.isStopped { try await Task.sleep(for: .milliseconds(5)) }
        #expect(first.isStopped && viewer.desk.captures.withLock { $0.count } == 2)
    }

    @Test func theUserIsNotifiedWhenViewingStartsAndStops() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        await viewer.send(.stopScreen(.init()))
        _ = await viewer.stopped()
        let titles = viewer.harness.notifications.all.map(\.0)
        #expect(titles.contains("TouchDeck: iPad is viewing your screen"))
        #expect(titles.last == "TouchDeck: iPad stopped viewing your screen")
    }

    @Test func lockingWhileViewingStopsItWithinSeconds() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        viewer.desk.locked.withLock { $0 = true }
        #expect(await viewer.stopped() == .locked)
    }

    @Test func allowScreenOffWhileViewingStopsIt() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        _ = await viewer.host.control(ControlRequest(command: .allowScreen, name: "iPad", on: false))
        #expect(await viewer.stopped() == .notAllowed)
    }

    @Test func aCaptureThatEndsStopsViewingWithError() async throws {
        var viewer = try await Viewer.make()
        _ = try #require(await viewer.start())
        try #require(viewer.desk.capture).end(.noDisplay)
        #expect(await viewer.stopped() == .error)
    }

    @Test func anUnknownDisplayIdIsABadMessage() async throws {
        var viewer = try await Viewer.make()
        await viewer.send(.startScreen(.init(displayId: 99, maxSide: 640)))
        let error = await viewer.wait { message -> HostMessage.ErrorReply? in
            if case .error(let e) = message { e } else { nil }
        }
        #expect(error?.code == .badMessage && error?.message == "no display has id 99 (ids: 5)")
    }

    /// The input actions once the pointer lane has had time to run (it is a chain of tasks).
    func settledActions(_ desk: Desk) async -> [InputAction] {
        var last = -1
        for _ in 0..<100 {
            try? await Task.sleep(for: .milliseconds(20))
            let count = desk.actions.withLock { $0.count }
            if count == last && count > 0 { break }
            last = count
        }
        return desk.actions.withLock { $0 }
    }
}
