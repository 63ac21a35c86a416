import Testing

@testable import DeckWayland

/// Why Extend is not offered on a portal desktop without sway: told by the ScreenCast portal's source types.
struct PortalExtendReasonTests {
    @Test func aPortalWithoutTheVirtualSourceTypeOrNoPortalAtAllOffersNoWayToAddAMonitor() {
        for types: UInt32? in [nil, 0, 1, 3] {
            let reason = PortalDesktop.noExtendReason(sourceTypes: types)
            #expect(reason.contains("no way to add a monitor"), "\(String(describing: types))")
            #expect(reason.contains("no virtual source"), "\(String(describing: types))")
        }
    }

    @Test func aPortalWithTheVirtualSourceTypeIsNamedAndWhyItIsNotUsedIsSaid() {
        for types: UInt32 in [4, 5, 7] {
            let reason = PortalDesktop.noExtendReason(sourceTypes: types)
            #expect(reason.contains("picked in its own dialog, not the device's"), "\(types)")
            #expect(!reason.contains("no virtual source"), "\(types)")
        }
    }
}
