import DeckKit
import DeckTransport
import Foundation
import Testing

@testable import DeckHost

/// The viewing machine's clipboard (DESIGN.md#clipboard): followed only while a device allowed to views, offered
/// only to that viewer, the follow ended on every stop path and when the permission is turned off.
@Suite struct ClipboardViewingTests {
    typealias Machine = ViewingMachine<String, String>
    typealias Action = ViewingAction<String, String>
    let ipad = ConnectionID(rawValue: 1)
    let phone = ConnectionID(rawValue: 2)
    var machine = Machine()

    static let request = DeviceMessage.StartScreen(displayId: 5, maxSide: 640, fps: 60, audio: false)
    static func look(clipboard: Bool) -> ViewingLook {
        ViewingLook(
            deviceId: "ipad", name: "iPad", allowed: true, monitors: [ViewingMachineTests.monitor], locked: false,
            needsApproval: false, clipboard: clipboard)
    }

    /// Runs a viewing for the iPad; returns the actions of its announce.
    mutating func view(clipboard: Bool) -> [Action] {
        _ = machine.looked(Self.request, from: ipad, Self.look(clipboard: clipboard))
        return machine.streamOpened(1, ViewingMachineTests.opened())
    }

    @Test mutating func aViewerAllowedIsFollowedFromTheAnnounceAndOffersGoToItAlone() {
        #expect(view(clipboard: true).first == .followClipboard(ticket: 2))
        let offer = HostMessage.ClipboardOffer(kind: .text, size: 2, data: Data("hi".utf8))
        #expect(machine.clipboardCopied(2, .content(.text("hi"))) == [.send(.clipboardOffer(offer), to: ipad)])
        // A copy the follower could not read offers nothing; a stale follow's copy neither.
        #expect(machine.clipboardCopied(2, .unreadable("stalled")).isEmpty)
        #expect(machine.clipboardCopied(7, .content(.text("hi"))).isEmpty)
        let tooLarge = HostMessage.ClipboardOffer(kind: .text, size: 20 << 20, tooLarge: true)
        #expect(
            machine.clipboardCopied(2, .tooLarge(.text, size: 20 << 20)) == [
                .send(.clipboardOffer(tooLarge), to: ipad)
            ])
    }

    @Test mutating func aViewerNotAllowedIsNotFollowed() {
        #expect(!view(clipboard: false).contains { if case .followClipboard = $0 { true } else { false } })
        #expect(machine.clipboardCopied(2, .content(.text("secret"))).isEmpty)
    }

    @Test mutating func everyStopEndsTheFollow() {
        _ = view(clipboard: true)
        #expect(machine.stop(.requested).contains(.stopClipboard(ticket: 2)))
        #expect(machine.clipboardCopied(2, .content(.text("after"))).isEmpty)
    }

    @Test mutating func thePermissionTurnedOffAndOnWhileViewing() {
        _ = view(clipboard: true)
        #expect(machine.clipboardPermission(of: phone, allowed: false).isEmpty)
        #expect(machine.clipboardPermission(of: ipad, allowed: false) == [.stopClipboard(ticket: 2)])
        #expect(machine.clipboardCopied(2, .content(.text("x"))).isEmpty)
        #expect(machine.clipboardPermission(of: ipad, allowed: true) == [.followClipboard(ticket: 3)])
        #expect(machine.clipboardPermission(of: ipad, allowed: true).isEmpty)
    }
}
