import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Testing

@testable import DeckHost

/// Extend through the viewing machine: access first, then whether the desktop can add a monitor; the made monitor
/// replacing the asked size once the stream opened (its id in `screenStarted`, the pointer mapped onto its layout
/// pixels); a monitor that could not be made refused as `cannotExtend` with the reason.
@Suite struct ViewingMachineExtendTests {
    typealias Machine = ViewingMachine<String, String>
    typealias Action = ViewingAction<String, String>

    static let ipadScreen = ExtendRequest(width: 2388, height: 1668, scale: 2, placement: .right)
    static let made = Monitor(
        id: 77, name: "HEADLESS-2", frame: PixelRect(x: 1280, y: 0, width: 2388, height: 1668), scale: 2)
    static let area = PixelRect(x: 1280, y: 0, width: 1194, height: 834)
    let ipad = ConnectionID(rawValue: 1)
    let phone = ConnectionID(rawValue: 2)
    var machine = Machine()

    static func extend() -> DeviceMessage.StartScreen {
        .init(displayId: 0, maxSide: 3840, fps: 30, extend: ipadScreen)
    }

    static func look(_ deviceId: String = "ipad", name: String = "iPad", unavailable: String? = nil) -> ViewingLook {
        var look = ViewingLook(
            deviceId: deviceId, name: name, allowed: true, monitors: [ViewingMachineTests.monitor], locked: false,
            needsApproval: false)
        look.extendUnavailable = unavailable
        return look
    }

    @Test mutating func aDesktopThatCannotAddAMonitorRefusesWithTheReason() {
        let actions = machine.looked(Self.extend(), from: ipad, Self.look(unavailable: "not on X11 yet"))
        #expect(actions == [.send(.screenDenied(.init(reason: .cannotExtend, detail: "not on X11 yet")), to: ipad)])
        #expect(machine.viewing == nil)
    }

    @Test mutating func accessComesFirstSoASecondDeviceIsBusyEvenWhereExtendIsNotOffered() {
        _ = machine.looked(Self.extend(), from: ipad, Self.look())
        let busy = machine.looked(Self.extend(), from: phone, Self.look("phone", name: "Phone", unavailable: "no"))
        #expect(busy == [.send(.screenDenied(.init(reason: .busy, viewer: "iPad")), to: phone)])
    }

    @Test mutating func theStreamIsOpenedWithTheRequestAndTheMadeMonitorIsAnnounced() throws {
        let actions = machine.looked(Self.extend(), from: ipad, Self.look())
        guard case .openStream(let serial, let wanted) = actions.last else {
            Issue.record("no stream opened: \(actions)")
            return
        }
        #expect(wanted.extend == Self.ipadScreen)
        #expect(wanted.monitor.frame.width == 2388 && wanted.monitor.frame.height == 1668)
        var opened = Machine.Opened(stream: "s", width: 2388, height: 1668, fps: 30, viewOnly: nil)
        opened.made = (Self.made, Self.area)
        let announced = machine.streamOpened(serial, opened)
        let started = HostMessage.screenStarted(.init(displayId: 77, width: 2388, height: 1668, fps: 30, audio: false))
        #expect(announced.first == .send(started, to: ipad))
        #expect(machine.viewing?.monitor == Self.made)
        // The centre of the stream is the centre of the monitor in layout pixels (1280 + 597, 417).
        let click = machine.pointer(.init(kind: .click, x: 0.5, y: 0.5), from: ipad, now: 10)
        guard case .input(let inputs) = click.first, case .move(let pixel) = inputs.first else {
            Issue.record("no move: \(click)")
            return
        }
        #expect((pixel.desktopX, pixel.desktopY) == (1877, 417))
    }

    /// A device that turned asks Extend again on its running viewing: the made monitor is kept for the new stream,
    /// told before the old stream's stop (whose capture would otherwise take it away).
    @Test mutating func aTurnKeepsTheMadeMonitorForTheNextStreamBeforeTheOldStreamStops() {
        let first = machine.looked(Self.extend(), from: ipad, Self.look())
        #expect(!first.contains { if case .keepMonitor = $0 { true } else { false } }, "a first start keeps nothing")
        guard case .openStream(let serial, _) = first.last else {
            Issue.record("no stream opened: \(first)")
            return
        }
        var opened = Machine.Opened(stream: "s", width: 2388, height: 1668, fps: 30, viewOnly: nil)
        opened.made = (Self.made, Self.area)
        _ = machine.streamOpened(serial, opened)
        let turned = ExtendRequest(width: 1668, height: 2388, scale: 2, placement: .right)
        let again = machine.looked(
            .init(displayId: 0, maxSide: 3840, fps: 30, extend: turned), from: ipad, Self.look())
        let keep = again.firstIndex(of: .keepMonitor(Self.made))
        let stop = again.firstIndex(of: .stopStream("s"))
        #expect(keep != nil && stop != nil && keep! < stop!, "\(again)")
        guard case .openStream(_, let wanted) = again.last else {
            Issue.record("no stream opened: \(again)")
            return
        }
        #expect(wanted.extend == turned)
    }

    /// The same device viewing a real monitor after Extend, or another device taking over: the monitor goes with
    /// its stream.
    @Test mutating func noMonitorIsKeptForAStartWithoutExtendOrFromAnotherDevice() {
        for (next, from) in [
            (DeviceMessage.StartScreen(displayId: ViewingMachineTests.monitor.id, maxSide: 3840, fps: 30), ipad),
            (Self.extend(), phone),
        ] {
            var machine = Machine()
            guard case .openStream(let serial, _) = machine.looked(Self.extend(), from: ipad, Self.look()).last else {
                Issue.record("no stream opened")
                return
            }
            var opened = Machine.Opened(stream: "s", width: 2388, height: 1668, fps: 30, viewOnly: nil)
            opened.made = (Self.made, Self.area)
            _ = machine.streamOpened(serial, opened)
            let look = from == ipad ? Self.look() : Self.look("ipad", name: "iPad")
            let actions = machine.looked(next, from: from, look)
            #expect(actions.contains(.stopStream("s")), "\(actions)")
            #expect(!actions.contains { if case .keepMonitor = $0 { true } else { false } }, "\(actions)")
        }
    }

    @Test mutating func aMonitorThatCouldNotBeMadeIsCannotExtend() {
        let actions = machine.looked(Self.extend(), from: ipad, Self.look())
        guard case .openStream(let serial, _) = actions.last else { return }
        let denied = machine.streamDidNotOpen(serial, error: "sway refused", cannotExtend: true)
        #expect(denied.last == .send(.screenDenied(.init(reason: .cannotExtend, detail: "sway refused")), to: ipad))
        #expect(machine.viewing == nil)
    }

    @Test func sizesAndScalesOutsideTheLimitsAreBadMessages() throws {
        let read = { (text: String) in try DeviceMessage.decode(text) }
        let good = try read(
            #"{"type":"startScreen","displayId":0,"maxSide":2388,"extend":{"width":2389,"height":1668}}"#)
        #expect(good == .startScreen(.init(displayId: 0, maxSide: 2388, extend: .init(width: 2388, height: 1668))))
        for bad in [
            #"{"width":10,"height":1668}"#, #"{"width":2388,"height":1668,"scale":9}"#,
            #"{"width":2388,"height":1668,"placement":"behind"}"#,
        ] {
            #expect(throws: MessageError.self) {
                try read(#"{"type":"startScreen","displayId":0,"maxSide":2388,"extend":"# + bad + "}")
            }
        }
        #expect(throws: MessageError.malformed("extend: width and height must be 240…8192 pixels")) {
            try read(#"{"type":"startScreen","displayId":0,"maxSide":2388,"extend":{"width":10,"height":10}}"#)
        }
    }
}
