import DeckDesktop
import DeckTransport
import Foundation
import Testing

@testable import DeckHost

/// The front door's list of paired devices follows the device book (issue 20.4): the list at once, then
/// every pairing and revocation.
@Suite struct KnownDevicesPublishTests {
    let dir = TempDir()

    @Test func theBookPublishesItsIdsAtOnceAndAfterEveryChange() throws {
        let book = DeviceBook(store: try ConfigStore(directory: dir.url))
        try book.add(DeviceRecord(id: "a1", name: "iPad", secret: Data(repeating: 1, count: 32)))
        let known = KnownDevices()
        book.published = known
        #expect(known.contains("a1"), "already paired before the snapshot was given")
        try book.add(DeviceRecord(id: "b2", name: "Phone", secret: Data(repeating: 2, count: 32)))
        #expect(known.contains("b2"))
        try book.remove(id: "a1")
        #expect(!known.contains("a1") && known.contains("b2"), "revoked: a stranger again")
    }
}
