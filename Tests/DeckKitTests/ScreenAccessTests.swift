import DeckKit
import Testing

private let ipad = ScreenAccess.Viewer(deviceId: "a1", name: "iPad")

/// Seed part 7's table, one row per case, plus the order of the checks.
@Test(
    arguments: [
        // allowed, permission, locked, viewer, expected
        (true, true, false, nil, ScreenAccess.Decision.start),
        (false, true, false, nil, .notAllowed),
        (true, false, false, nil, .noPermission),
        (true, true, true, nil, .locked),
        (true, true, false, ipad, .busy(viewer: "iPad")),
        // not allowed hides everything else
        (false, false, true, ipad, .notAllowed),
        // permission before lock before busy
        (true, false, true, ipad, .noPermission),
        (true, true, true, ipad, .locked),
    ] as [(Bool, Bool, Bool, ScreenAccess.Viewer?, ScreenAccess.Decision)])
func screenAccessTable(
    allowed: Bool, permission: Bool, locked: Bool, viewer: ScreenAccess.Viewer?, expected: ScreenAccess.Decision
) {
    let got = ScreenAccess.decide(
        allowed: allowed, permission: permission, locked: locked, viewer: viewer, requester: "b2")
    #expect(got == expected)
}

@Test func sameDeviceAgainResumes() {
    let got = ScreenAccess.decide(allowed: true, permission: true, locked: false, viewer: ipad, requester: "a1")
    #expect(got == .resume)
    #expect(got.permitsViewing)
    #expect(got.denial == nil)
}

@Test func viewingStopsWhenAllowanceOrLockChanges() {
    let withdrawn = ScreenAccess.decide(allowed: false, permission: true, locked: false, viewer: ipad, requester: "a1")
    let locked = ScreenAccess.decide(allowed: true, permission: true, locked: true, viewer: ipad, requester: "a1")
    #expect(!withdrawn.permitsViewing)
    #expect(!locked.permitsViewing)
}

@Test func refusalsBecomeScreenDenied() {
    #expect(ScreenAccess.Decision.start.denial == nil)
    #expect(ScreenAccess.Decision.notAllowed.denial == HostMessage.ScreenDenied(reason: .notAllowed))
    #expect(ScreenAccess.Decision.noPermission.denial == HostMessage.ScreenDenied(reason: .noPermission))
    #expect(ScreenAccess.Decision.locked.denial == HostMessage.ScreenDenied(reason: .locked))
    #expect(
        ScreenAccess.Decision.busy(viewer: "iPad").denial == HostMessage.ScreenDenied(reason: .busy, viewer: "iPad"))
}
