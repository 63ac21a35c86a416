import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Testing

@testable import DeckHost

/// The viewing machine's transitions, every start and every stop path, with plain strings for the stream and
/// the sound handles (the same paths through the actor are in ScreenStreamTests and SoundViewingTests).
@Suite struct ViewingMachineTests {
    typealias Machine = ViewingMachine<String, String>
    typealias Action = ViewingAction<String, String>

    static let monitor = Monitor(id: 5, name: "HDMI-1", frame: PixelRect(x: 100, y: 0, width: 640, height: 360))
    let ipad = ConnectionID(rawValue: 1)
    let phone = ConnectionID(rawValue: 2)
    let ipadAgain = ConnectionID(rawValue: 3)
    var machine = Machine()

    static func request(audio: Bool = false, displayId: Int = 5) -> DeviceMessage.StartScreen {
        .init(displayId: displayId, maxSide: 640, fps: 60, audio: audio)
    }

    static func look(
        _ deviceId: String = "ipad", name: String = "iPad", allowed: Bool = true, monitors: [Monitor]? = [monitor],
        locked: Bool = false, approval: Bool = false
    ) -> ViewingLook {
        ViewingLook(
            deviceId: deviceId, name: name, allowed: allowed, monitors: monitors, locked: locked,
            needsApproval: approval)
    }

    static func opened(_ stream: String = "stream") -> Machine.Opened {
        .init(stream: stream, width: 640, height: 360, fps: 60, viewOnly: nil)
    }

    static func started(audio: Bool = false) -> HostMessage {
        .screenStarted(.init(displayId: 5, width: 640, height: 360, fps: 60, audio: audio))
    }

    /// The announce that follows a start: `screenStarted`, the log line, the notification, the first watch.
    func announced(serial: UInt64, to id: ConnectionID, audio: Bool = false) -> [Action] {
        let metadata = ["device.name": "iPad", "display": "HDMI-1", "size": "640x360", "fps": "60"]
        return [
            .send(Self.started(audio: audio), to: id),
            .log(.init(level: .notice, message: "screen viewing started", metadata: metadata)),
            .notify(
                title: "TouchDeck: iPad is viewing your screen",
                body: "Monitor HDMI-1. End it with: touchdeck disconnect-viewer"),
            .watch(serial: serial, connection: id, after: .zero),
        ]
    }

    /// The stop actions of a running viewing without sound and without a held button.
    func stopped(_ reason: HostMessage.ScreenStopped.Reason?, of id: ConnectionID, stream: String = "stream")
        -> [Action]
    {
        let told: [Action] = reason.map { [.send(.screenStopped(.init(reason: $0)), to: id)] } ?? []
        let why = ["device.name": "iPad", "reason": reason?.rawValue ?? "closed"]
        return [.stopStream(stream)] + told + [
            .log(.init(level: .notice, message: "screen viewing stopped", metadata: why)),
            .notify(title: "TouchDeck: iPad stopped viewing your screen", body: ""),
        ]
    }

    /// Starts a viewing for `id` and lets its stream open; returns its serial.
    mutating func run(_ id: ConnectionID? = nil) -> UInt64 {
        let id = id ?? ipad
        let actions = machine.looked(Self.request(), from: id, Self.look())
        guard case .openStream(let serial, _) = actions.last else {
            Issue.record("no stream opened: \(actions)")
            return 0
        }
        _ = machine.streamOpened(serial, Self.opened())
        return serial
    }

    @Test func aDeviceNotAllowedIsRefusedBeforeTheDesktopIsAsked() {
        #expect(
            machine.ask(Self.request(), from: ipad, allowed: false) == [
                .send(.screenDenied(.init(reason: .notAllowed)), to: ipad)
            ])
        #expect(machine.ask(Self.request(), from: ipad, allowed: true) == [.look(Self.request(), from: ipad)])
    }

    @Test mutating func accessIsDecidedInOrderAfterTheLook() {
        let ipad = self.ipad
        let denied = { (reason: HostMessage.ScreenDenied) in [Action.send(.screenDenied(reason), to: ipad)] }
        #expect(
            machine.looked(Self.request(), from: ipad, Self.look(allowed: false, locked: true))
                == denied(.init(reason: .notAllowed)))
        #expect(
            machine.looked(Self.request(), from: ipad, Self.look(monitors: nil, locked: true))
                == denied(.init(reason: .noPermission)))
        #expect(machine.looked(Self.request(), from: ipad, Self.look(locked: true)) == denied(.init(reason: .locked)))
        #expect(machine.viewing == nil)
    }

    @Test mutating func anUnknownDisplayIsABadMessage() {
        let error = HostMessage.error(
            .init(code: .badMessage, message: "no display has id 99 (ids: 5)", request: "startScreen"))
        #expect(machine.looked(Self.request(displayId: 99), from: ipad, Self.look()) == [.send(error, to: ipad)])
        #expect(machine.viewing == nil)
    }

    @Test mutating func aStartOpensTheStreamAndAnnouncesOnceItRuns() {
        let actions = machine.looked(Self.request(), from: ipad, Self.look())
        let wanted = ViewingStreamRequest(connection: ipad, monitor: Self.monitor, maxSide: 640, fps: 60)
        #expect(actions == [.openStream(serial: 1, wanted)])
        guard case .starting(_, nil) = machine.stage else {
            Issue.record("not waiting for the stream")
            return
        }
        #expect(machine.announcedSerial(of: ipad) == nil)
        #expect(machine.pointer(.init(kind: .click, x: 0.5, y: 0.5), from: ipad, now: 10).isEmpty)
        #expect(machine.streamOpened(1, Self.opened()) == announced(serial: 1, to: ipad))
        #expect(machine.announcedSerial(of: ipad) == 1)
    }

    @Test mutating func aStartTheUserMustApproveIsPendingFirst() {
        let actions = machine.looked(Self.request(), from: ipad, Self.look(approval: true))
        #expect(actions.first == .send(.screenPending(.init(reason: .approval)), to: ipad))
    }

    @Test mutating func withSoundTheStartWaitsForTheSoundToAnswer() {
        let actions = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        #expect(actions.first == .joinSound(ticket: 2, connection: ipad))
        #expect(machine.soundJoined(2, "sound").isEmpty)
        #expect(machine.streamOpened(1, Self.opened()).isEmpty)
        #expect(machine.soundStarted(2, error: nil) == announced(serial: 1, to: ipad, audio: true))
        #expect(machine.soundRunning)
    }

    @Test mutating func aSoundThatFailsStartsTheVideoWithoutSound() {
        _ = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        _ = machine.soundJoined(2, "sound")
        _ = machine.streamOpened(1, Self.opened())
        let warning = LogLine(
            level: .warning, message: "sound for the viewer could not start: no sound server",
            metadata: ["device.name": "iPad"])
        #expect(
            machine.soundStarted(2, error: "no sound server") == [.log(warning), .leaveSound("sound", viewer: "iPad")]
                + announced(serial: 1, to: ipad))
    }

    @Test mutating func aSoundThatCouldNotBeJoinedDoesNotHoldTheStart() {
        _ = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        #expect(machine.streamOpened(1, Self.opened()).isEmpty)
        #expect(machine.soundJoined(2, nil) == announced(serial: 1, to: ipad))
        #expect(machine.soundJoined(2, "late") == [.leaveSound("late", viewer: "iPad")])
    }

    @Test mutating func turningTheSoundOffWhileTheStartWaitsForItAnnounces() {
        _ = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        _ = machine.soundJoined(2, "sound")
        _ = machine.streamOpened(1, Self.opened())
        let off = machine.options(.init(fps: 60, audio: false), from: ipad)
        #expect(off == [.setFPS("stream", 60), .leaveSound("sound", viewer: "iPad")] + announced(serial: 1, to: ipad))
        #expect(machine.soundStarted(2, error: nil).isEmpty)
    }

    @Test mutating func screenOptionsChangesTheRateAndTurnsSoundOnAndOff() {
        _ = run()
        #expect(
            machine.options(.init(fps: 30, audio: true), from: ipad) == [
                .setFPS("stream", 30), .joinSound(ticket: 2, connection: ipad),
            ])
        _ = machine.soundJoined(2, "sound")
        #expect(machine.soundStarted(2, error: nil).isEmpty)
        #expect(machine.options(.init(fps: 30, audio: true), from: ipad) == [.setFPS("stream", 30)])
        #expect(
            machine.options(.init(fps: 30, audio: false), from: ipad) == [
                .setFPS("stream", 30), .leaveSound("sound", viewer: "iPad"),
            ])
        #expect(machine.options(.init(fps: 30, audio: true), from: phone).isEmpty)
        #expect(machine.requestKeyframe(from: ipad) == [.requestKeyframe("stream")])
        #expect(machine.requestKeyframe(from: phone).isEmpty)
    }

    @Test mutating func theDeviceStopping() {
        _ = run()
        #expect(machine.stopScreen(from: ipad) == stopped(.requested, of: ipad))
        #expect(machine.viewing == nil)
        #expect(machine.stopScreen(from: ipad) == [.send(.screenStopped(.init(reason: .requested)), to: ipad)])
    }

    @Test mutating func aStopReleasesAHeldButtonAndLeavesTheSound() {
        _ = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        _ = machine.soundJoined(2, "sound")
        _ = machine.streamOpened(1, Self.opened())
        _ = machine.soundStarted(2, error: nil)
        #expect(machine.pointer(.init(kind: .down, x: 0.5, y: 0.5), from: ipad, now: 10).count == 1)
        let actions = machine.stopScreen(from: ipad)
        #expect(actions.first == .leaveSound("sound", viewer: "iPad"))
        #expect(actions.contains(.input([.button(.left, pressed: false)])))
        #expect(actions.contains(.stopStream("stream")))
    }

    @Test mutating func theDeviceDisconnectingOrRevokedTellsNobody() {
        _ = run()
        #expect(machine.end(phone, nil).isEmpty)
        #expect(machine.end(ipad, nil) == stopped(nil, of: ipad))
    }

    @Test mutating func allowScreenOffStopsWithNotAllowed() {
        _ = run()
        #expect(machine.end(ipad, .notAllowed) == stopped(.notAllowed, of: ipad))
    }

    @Test mutating func disconnectViewerAndShutdownStopWithEnded() {
        _ = run()
        #expect(machine.stop(.ended) == stopped(.ended, of: ipad))
        #expect(machine.stop(.ended).isEmpty)
    }

    @Test mutating func aCaptureThatEndsStopsWithErrorOnce() {
        // The monitor gone, the desktop session restarted: the capture ends, and may say so more than once.
        let serial = run()
        let failed = LogLine(level: .error, message: "screen viewing failed: the display went away")
        #expect(machine.streamFailed(serial, "the display went away") == [.log(failed)] + stopped(.error, of: ipad))
        #expect(machine.streamFailed(serial, "the display went away").isEmpty)
    }

    @Test mutating func theWatchStopsOnLockOrWithdrawnPermissionAndLooksAgainOtherwise() {
        var serial = run()
        #expect(
            machine.watched(serial, allowed: true, locked: false) == [
                .watch(serial: serial, connection: ipad, after: .seconds(1))
            ])
        #expect(machine.watched(serial, allowed: true, locked: true) == stopped(.locked, of: ipad))
        #expect(machine.watched(serial, allowed: true, locked: false).isEmpty)
        serial = run()
        #expect(machine.watched(serial, allowed: false, locked: false) == stopped(.notAllowed, of: ipad))
    }

    @Test mutating func aStartThatFailsIsDeniedNoPermission() {
        _ = machine.looked(Self.request(audio: true), from: ipad, Self.look())
        _ = machine.soundJoined(2, "sound")
        let error = LogLine(
            level: .error, message: "screen viewing could not start: no encoder", metadata: ["device.name": "iPad"])
        #expect(
            machine.streamDidNotOpen(1, error: "no encoder")
                == [
                    .log(error), .leaveSound("sound", viewer: "iPad"),
                    .send(.screenDenied(.init(reason: .noPermission)), to: ipad),
                ])
        #expect(machine.viewing == nil)
        #expect(machine.soundStarted(2, error: nil).isEmpty)
    }

    @Test mutating func aStopWhileStartingTellsTheDeviceAndTheLateStreamIsStopped() {
        _ = machine.looked(Self.request(), from: ipad, Self.look())
        // Never announced: no log line, no notification.
        #expect(machine.stopScreen(from: ipad) == [.send(.screenStopped(.init(reason: .requested)), to: ipad)])
        #expect(machine.streamOpened(1, Self.opened()) == [.stopStream("stream")])
        #expect(machine.streamDidNotOpen(1, error: "late").isEmpty)
        #expect(machine.viewing == nil)
    }

    @Test mutating func aSecondStartWhileStartingFromAnotherDeviceIsBusy() {
        _ = machine.looked(Self.request(), from: ipad, Self.look())
        let busy = machine.looked(Self.request(), from: phone, Self.look("phone", name: "Phone"))
        #expect(busy == [.send(.screenDenied(.init(reason: .busy, viewer: "iPad")), to: phone)])
    }

    @Test mutating func theSameDeviceOnAnotherConnectionReplacesTheStartQuietly() {
        _ = run()
        let actions = machine.looked(Self.request(), from: ipadAgain, Self.look())
        let why = ["device.name": "iPad", "reason": "replaced"]
        let wanted = ViewingStreamRequest(connection: ipadAgain, monitor: Self.monitor, maxSide: 640, fps: 60)
        #expect(
            actions == [
                .stopStream("stream"), .send(.screenStopped(.init(reason: .replaced)), to: ipad),
                .log(.init(level: .notice, message: "screen viewing stopped", metadata: why)),
                .openStream(serial: 2, wanted),
            ])
        #expect(machine.viewing?.connection == ipadAgain)
    }

    @Test mutating func theSameConnectionStartingAgainEndsItsOldStreamWithoutAWord() {
        _ = run()
        let actions = machine.looked(Self.request(), from: ipad, Self.look())
        #expect(!actions.contains { if case .send(.screenStopped, _) = $0 { true } else { false } })
        #expect(actions.first == .stopStream("stream"))
    }

    @Test mutating func pointerMessagesComeFromTheViewerOnlyAndAHeldBackMoveWakesOnce() {
        let serial = run()
        #expect(machine.pointer(.init(kind: .click, x: 0.5, y: 0.5), from: phone, now: 10).isEmpty)
        _ = machine.pointer(.init(kind: .down, x: 0.1, y: 0.1), from: ipad, now: 10)
        #expect(machine.pointer(.init(kind: .move, x: 0.15, y: 0.15), from: ipad, now: 10.0005).count == 1)
        let held = machine.pointer(.init(kind: .move, x: 0.2, y: 0.2), from: ipad, now: 10.001)
        guard case .wakePointer(serial, let at) = held.last else {
            Issue.record("no wake-up: \(held)")
            return
        }
        let again = machine.pointer(.init(kind: .move, x: 0.3, y: 0.3), from: ipad, now: 10.002)
        #expect(!again.contains { if case .wakePointer = $0 { true } else { false } })
        let woken = machine.pointerWake(serial, now: at)
        guard case .input(let moves) = woken.first else {
            Issue.record("the move did not land: \(woken)")
            return
        }
        #expect(moves.count == 1)
        #expect(machine.pointerWake(serial + 1, now: at).isEmpty)
    }
}
