import Foundation
import Testing

@testable import DeckWayland

/// The restore token file without a portal.
struct PortalRestoreTokenTests {
    @Test func aSavedTokenIsReadBackFromAFileOnlyTheUserCanRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-token-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = PortalRestoreToken(directory: folder)
        #expect(token.load() == nil)
        try token.save("first")
        try token.save("renewed")
        #expect(token.load() == "renewed")
        let mode = try FileManager.default.attributesOfItem(atPath: token.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("  \n".utf8).write(to: token.file)
        #expect(token.load() == nil, "a blank file is no token")
    }
}
