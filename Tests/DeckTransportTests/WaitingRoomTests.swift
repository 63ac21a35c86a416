import Foundation
import Testing

@testable import DeckTransport

/// The waiting room's rules (PROTOCOL §0): strangers per address and in all, the busiest address making room,
/// the known devices' reserve, the deadline.
@Suite struct WaitingRoomTests {
    private let start = ContinuousClock.now
    private func id(_ n: UInt64) -> ConnectionID { ConnectionID(rawValue: n) }
    private func evicted(_ n: UInt64, _ reason: WaitingRoom.Eviction.Reason) -> [WaitingRoom.Eviction] {
        [WaitingRoom.Eviction(id: id(n), reason: reason)]
    }

    @Test func theSpecLimitsAreTheDefaults() {
        let limits = FrontDoorLimits()
        #expect(limits.maxMessageSize == 65536)
        #expect(limits.authorizeWithin == .seconds(30))
        #expect(limits.perAddress == 8)
        #expect(limits.total == 64)
    }

    @Test func aNinthFromOneAddressPushesOutThatAddressesOldestOnly() {
        var room = WaitingRoom(limits: FrontDoorLimits())
        #expect(room.admit(id(1), address: "10.0.0.6", now: start) == [])
        for n: UInt64 in 2...9 { #expect(room.admit(id(n), address: "10.0.0.5", now: start) == []) }
        #expect(room.admit(id(10), address: "10.0.0.5", now: start) == evicted(2, .addressFull))
        #expect(room.isWaiting(id(10)) && room.isWaiting(id(1)), "the newcomer and other addresses stay")
        room.leave(id(4))
        #expect(room.admit(id(11), address: "10.0.0.5", now: start) == [], "a freed place is taken without a push")
    }

    @Test func whenAllAreTakenTheBusiestAddressMakesRoom() {
        var room = WaitingRoom(limits: FrontDoorLimits())
        // One from a quiet address first (the oldest of all), then 63 from a flood of 8 addresses.
        _ = room.admit(id(1), address: "192.168.1.20", now: start)
        for n: UInt64 in 2...64 { #expect(room.admit(id(n), address: "10.0.\(n % 8).1", now: start) == []) }
        // The flood's addresses hold 7 or 8; the oldest of the first with 8 (10.0.2.1: 2, 10, …) goes.
        #expect(room.admit(id(100), address: "10.0.9.1", now: start) == evicted(2, .roomFull))
        #expect(room.strangers.count == 64)
        for n: UInt64 in 101...400 { _ = room.admit(id(n), address: "10.1.\(n % 32).1", now: start) }
        #expect(room.isWaiting(id(1)), "300 more from 32 addresses never reach it: some address always has 2")
        for n: UInt64 in 401...600 { _ = room.admit(id(n), address: "10.2.\(n % 64).1", now: start) }
        #expect(!room.isWaiting(id(1)), "from 64 addresses they do (what the known devices' reserve is for)")
    }

    @Test func tiedAddressesGiveUpTheOneThatHasWaitedLongest() {
        var room = WaitingRoom(limits: FrontDoorLimits(overrides: "total=4"))
        for (n, address) in zip(UInt64(1)...4, ["a", "b", "b", "a"]) {
            _ = room.admit(id(n), address: address, now: start)
        }
        #expect(room.admit(id(5), address: "c", now: start) == evicted(1, .roomFull))
        #expect(room.admit(id(6), address: "c", now: start) == evicted(2, .roomFull))
    }

    @Test func aDeviceNamedInTheUpgradeWaitsApartAndTheNewerReplacesTheOlder() {
        var room = WaitingRoom(limits: FrontDoorLimits(overrides: "perAddress=2,total=4"))
        #expect(room.admit(id(1), address: "a", device: "tablet", now: start) == [])
        for n: UInt64 in 2...50 { _ = room.admit(id(n), address: n % 2 == 0 ? "a" : "b\(n)", now: start) }
        #expect(room.isWaiting(id(1)) && !room.isStranger(id(1)), "strangers from its address and others")
        #expect(room.strangers.count == 4)
        #expect(room.admit(id(51), address: "c", device: "phone", now: start) == [], "each device has its place")
        #expect(room.admit(id(52), address: "a", device: "tablet", now: start) == evicted(1, .replaced))
        #expect(room.devices.mapValues(\.id) == ["tablet": id(52), "phone": id(51)])
    }

    @Test func aStrangerWhoseHelloNamesADeviceMovesToItsPlaceKeepingItsDeadline() {
        var room = WaitingRoom(limits: FrontDoorLimits(overrides: "perAddress=2"))
        _ = room.admit(id(1), address: "a", device: "tablet", now: start)
        _ = room.admit(id(2), address: "a", now: start + .seconds(1))
        #expect(room.claim(id(2), device: "tablet") == evicted(1, .replaced))
        #expect(!room.isStranger(id(2)) && room.deadline(of: id(2)) == start + .seconds(31))
        #expect(room.claim(id(2), device: "tablet") == [], "already there")
        #expect(room.claim(id(99), device: "tablet") == [], "not waiting: nothing changes")
        for n: UInt64 in 3...4 { #expect(room.admit(id(n), address: "a", now: start) == []) }
        #expect(room.admit(id(5), address: "a", now: start) == evicted(3, .addressFull), "it left the count")
    }

    @Test func authorizingOrClosingLeavesTheRoom() {
        var room = WaitingRoom(limits: FrontDoorLimits(overrides: "total=2"))
        #expect(room.admit(id(1), address: "a", now: start) == [])
        #expect(room.admit(id(2), address: "b", now: start) == [])
        _ = room.admit(id(4), address: "d", device: "tablet", now: start)
        room.leave(id(1))
        room.leave(id(4))
        #expect(room.admit(id(3), address: "c", now: start) == [], "nobody is pushed out while there is room")
        #expect(room.devices.isEmpty && !room.isWaiting(id(4)))
        #expect(room.expire(now: start + .seconds(60)) == [id(2), id(3)])
    }

    @Test func onlyThoseWhoseTimeIsUpExpireInBothPools() {
        var room = WaitingRoom(limits: FrontDoorLimits())
        _ = room.admit(id(1), address: "a", now: start)
        _ = room.admit(id(2), address: "a", now: start + .seconds(10))
        _ = room.admit(id(3), address: "a", device: "tablet", now: start + .seconds(5))
        #expect(room.expire(now: start + .seconds(29)) == [])
        #expect(room.deadline(of: id(1)) == start + .seconds(30))
        #expect(room.expire(now: start + .seconds(35)) == [id(1), id(3)])
        #expect(room.isWaiting(id(2)) && !room.isWaiting(id(1)) && !room.isWaiting(id(3)))
        #expect(room.expire(now: start + .seconds(45)) == [id(2)])
        #expect(room.strangers.isEmpty && room.devices.isEmpty)
    }

    @Test func testOverridesChangeOnlyWhatTheyName() {
        let limits = FrontDoorLimits(overrides: "grace=1.5, message=1024,perAddress=3,bogus=9,total=-1")
        #expect(limits.authorizeWithin == .milliseconds(1500))
        #expect(limits.maxMessageSize == 1024)
        #expect(limits.perAddress == 3)
        #expect(limits.total == 64, "a value that makes no sense is ignored")
    }
}

/// Which device a connection says it is before authorization, and the snapshot the front door checks it in.
@Suite struct DeviceClaimTests {
    @Test func helloAndAuthStartNameTheirDevice() {
        #expect(DeviceClaim.named(in: Data(#"{"type":"hello","name":"iPad","deviceId":"d1"}"#.utf8)) == "d1")
        #expect(DeviceClaim.named(in: Data(#"{"type":"authStart","deviceId":"d2","eA":"BA=="}"#.utf8)) == "d2")
    }

    @Test func anythingElseNamesNone() {
        for text in [
            #"{"type":"hello","name":"new"}"#, #"{"type":"pairStart","deviceId":"d1"}"#,
            #"{"type":"hello","deviceId":7}"#, "not json", #"["hello"]"#,
            #"{"type":"hello","deviceId":"d1","name":""# + String(repeating: "x", count: 5000) + #""}"#,
        ] {
            #expect(DeviceClaim.named(in: Data(text.utf8)) == nil, "\(text.prefix(60))")
        }
    }

    @Test func theSnapshotIsReplacedWhole() {
        let known = KnownDevices()
        #expect(!known.contains("d1"))
        known.replace(with: ["d1", "d2"])
        #expect(known.contains("d1") && known.contains("d2"))
        known.replace(with: ["d2"])
        #expect(!known.contains("d1") && known.contains("d2"))
    }
}
