import DeckDesktop
import Foundation
import Testing

@testable import DeckHost

/// The config dir holds the device secrets and the CA's key: nobody else may list or enter it.
@Suite struct ConfigDirectoryModeTests {
    let dir = TempDir()

    func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    @Test func anExistingDirectoryWithMode755IsTightenedTo700() throws {
        let config = dir.url.appendingPathComponent("touchdeck")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        chmod(config.path, 0o755)
        _ = try ConfigStore(directory: config)
        #expect(try mode(config.path) == 0o700)
    }

    @Test func aNewDirectoryIsCreated700() throws {
        let config = dir.url.appendingPathComponent("new/touchdeck")
        _ = try ConfigStore(directory: config)
        #expect(try mode(config.path) == 0o700)
    }

    @Test func aPrivateDirectoryIsLeftAsItIs() throws {
        let config = dir.url.appendingPathComponent("touchdeck")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        chmod(config.path, 0o500)
        _ = try ConfigStore(directory: config)
        #expect(try mode(config.path) == 0o500)
        chmod(config.path, 0o700)
    }
}
