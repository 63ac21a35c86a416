import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Names devices give and the user changes: cleaned where they enter, unique among paired
/// devices (DESIGN.md#pairing, #operations).
@Suite struct DeviceNamesTests {
    let dir = TempDir()

    func book() throws -> DeviceBook { DeviceBook(store: try ConfigStore(directory: dir.url)) }

    func record(_ id: String, _ name: String) -> DeviceRecord {
        DeviceRecord(id: id, name: name, secret: Data(repeating: 1, count: 32))
    }

    @Test func aSecondAndThirdIPadAreNumbered() throws {
        let book = try book()
        for id in ["a1", "b2", "c3"] { try book.add(record(id, "iPad")) }
        #expect(book.records.map(\.name) == ["iPad", "iPad 2", "iPad 3"])
        // Saved as numbered, so a restart keeps them apart.
        #expect(try self.book().records.map(\.name) == ["iPad", "iPad 2", "iPad 3"])
    }

    @Test func aNameIsCleanedWhenADeviceIsAdded() throws {
        let book = try book()
        try book.add(record("a1", " Kitchen\u{202E}\u{0007} "))
        try book.add(record("b2", "\u{202E}"))
        #expect(book.records.map(\.name) == ["Kitchen", "Device"])
    }

    @Test func renameCleansSavesAndIsSeenAfterARestart() throws {
        let book = try book()
        try book.add(record("a1", "iPad"))
        #expect(try book.rename(id: "a1", to: "  Living room\u{202E} ") == "Living room")
        #expect(try self.book().records.map(\.name) == ["Living room"])
    }

    @Test func renameRefusesANameAnotherDeviceHas() throws {
        let book = try book()
        try book.add(record("a1", "iPad"))
        try book.add(record("b2", "Phone"))
        #expect(throws: RenameRefusal.taken("iPad")) { try book.rename(id: "b2", to: "IPAD") }
        #expect(throws: RenameRefusal.empty) { try book.rename(id: "b2", to: "\u{202E}\n") }
        // A device may change the case of its own name.
        #expect(try book.rename(id: "a1", to: "IPAD") == "IPAD")
        #expect(try self.book().records.map(\.name) == ["IPAD", "Phone"])
    }

    @Test func namesFromAnOlderFileAreShownCleaned() throws {
        let secret = Data(repeating: 1, count: 32).base64EncodedString()
        try dir.write(
            #"{"devices":[{"id":"ab","name":"evil\u202egpj.exe","secret":"\#(secret)"}]}"#, to: "devices.json")
        #expect(try book().records.map(\.name) == ["evilgpj.exe"])
    }

    @Test func twoDevicesPairingAsIPadAreListedApartAndCanBeRevokedByName() async throws {
        let harness = try HostHarness()
        _ = try await harness.pair(name: "iPad")
        _ = try await harness.pair(name: "iPad")
        let listed = await harness.host.control(ControlRequest(command: .devices)).devices?.map(\.name).sorted()
        #expect(listed == ["iPad", "iPad 2"])
        let revoked = await harness.host.control(ControlRequest(command: .revoke, name: "iPad 2"))
        #expect(revoked.ok)
        #expect(revoked.devices?.map(\.name) == ["iPad"])
    }

    @Test func renameThroughTheControlRequest() async throws {
        let harness = try HostHarness()
        _ = try await harness.pair(name: "iPad")
        _ = try await harness.pair(name: "Phone")
        let renamed = await harness.host.control(ControlRequest(command: .rename, name: "iPad", newName: "Den\u{202E}"))
        #expect(renamed.ok && renamed.name == "Den")
        #expect(renamed.devices?.map(\.name).sorted() == ["Den", "Phone"])
        let taken = await harness.host.control(ControlRequest(command: .rename, name: "Den", newName: "phone"))
        #expect(!taken.ok && taken.error == "another device is already called Phone; pick another name")
        let missing = await harness.host.control(ControlRequest(command: .rename, name: "Nope", newName: "x"))
        #expect(!missing.ok && missing.error == "no paired device is called Nope")
    }

    @Test func theHelloNameInTheNotificationHasNoOverride() async throws {
        let harness = try HostHarness()
        await harness.send(.hello(.init(name: "Kitchen\u{202E}\u{1B}[2J")), on: await harness.open())
        #expect(harness.notifications.all.first?.0 == "TouchDeck: Kitchen[2J wants to pair")
    }

    @Test func thePairStartNameIsStoredCleaned() async throws {
        let harness = try HostHarness()
        _ = try await harness.pair(name: "\u{2066}Tablet\u{2069}\u{200F}")
        let listed = await harness.host.control(ControlRequest(command: .devices)).devices?.map(\.name)
        #expect(listed == ["Tablet"])
    }

    @Test func aLabelWithAnOverrideReachesOtherDevicesCleaned() async throws {
        let harness = try HostHarness()
        var editor = try await harness.authorize(try await harness.pair(name: "A"))
        var viewer = try await harness.authorize(try await harness.pair(name: "B"))
        _ = editor.inbox()
        _ = viewer.inbox()
        let button = Button(label: "\u{202E}Blog\u{0008}", kind: .command("blogrun"))
        await editor.send(.setButton(.init(page: 0, index: 0, button: button)), to: harness.host)
        guard case .layout(let layout) = viewer.inbox().last else {
            Issue.record("no layout reached the other device")
            return
        }
        #expect(layout.layout.button(page: 0, index: 0)?.label == "Blog")
    }
}
