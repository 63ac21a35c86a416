import DeckKit
import Foundation
import Testing

@testable import DeckHost

@Suite struct ConfigStoreTests {
    let dir = TempDir()
    let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_700_000_000) }

    func store() throws -> ConfigStore { try ConfigStore(directory: dir.url, now: fixedNow) }

    func device(_ name: String = "iPad") -> DeviceRecord {
        DeviceRecord(
            id: "00112233445566778899aabbccddeeff", name: name, secret: Data(repeating: 7, count: 32),
            lastSeen: Date(timeIntervalSince1970: 1_600_000_000), lastProtocol: 2)
    }

    @Test func devicesRoundTripWithOwnerOnlyMode() throws {
        let store = try store()
        try store.save(DeviceFile(devices: [device()]), to: .devices)
        let loaded = try self.store().load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: []))
        #expect(loaded.devices == [device()])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url(.devices).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func olderDeviceWithoutScreenAllowedReadsAsOff() throws {
        let secret = Data(repeating: 1, count: 32).base64EncodedString()
        try dir.write(#"{"devices":[{"id":"ab","name":"old iPad","secret":"\#(secret)"}]}"#, to: "devices.json")
        let store = try store()
        let loaded = store.load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: []))
        #expect(loaded.devices.count == 1)
        #expect(loaded.devices.first?.screenAllowed == false)
        #expect(loaded.devices.first?.lastSeen == nil)
        #expect(store.problems.isEmpty)
    }

    @Test func missingFileGivesFallbackWithoutProblems() throws {
        let store = try store()
        let loaded = store.load(.config, as: [String: Int].self, fallback: ["fallback": 1])
        #expect(loaded == ["fallback": 1])
        #expect(store.problems.isEmpty)
    }

    @Test func corruptFileIsKeptAsideAndReported() throws {
        try dir.write("{\"layout\": [1, 2", to: "config.json")
        let store = try store()
        let loaded = store.load(.config, as: [String: Int].self, fallback: ["fallback": 1])
        #expect(loaded == ["fallback": 1])
        let aside = "config.json.corrupt-1700000000000"
        #expect(try dir.read(aside) == "{\"layout\": [1, 2")
        #expect(store.problems.count == 1)
        #expect(store.problems[0].contains(aside))
        try store.save(["new": 2], to: .config)
        #expect(try dir.read(aside) == "{\"layout\": [1, 2")
        #expect(dir.names() == ["config.json", aside])
    }

    @Test func problemReportNeverQuotesTheSecretsFile() throws {
        try dir.write(#"{"devices":[{"id":"ab","name":"x","secret":"c2VjcmV0LXZhbHVl"}], oops"#, to: "devices.json")
        let store = try store()
        _ = store.load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: []))
        #expect(store.problems.count == 1)
        #expect(!store.problems[0].contains("c2VjcmV0"))
        #expect(store.problems[0].contains("not valid JSON"))
    }

    @Test func wrongShapeIsReportedWithItsPath() throws {
        try dir.write(#"{"devices":[{"id":"ab","name":"x"}]}"#, to: "devices.json")
        let store = try store()
        _ = store.load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: []))
        #expect(store.problems.first?.contains("missing devices.[0].secret") == true)
    }

    @Test func leftoverTempFilesFromAKilledWriterAreRemoved() throws {
        try dir.write("half", to: ".config.json.tmp-123-456")
        try dir.write("{}", to: "config.json")
        _ = try store()
        #expect(dir.names() == ["config.json"])
    }

    @Test func savingReplacesContentsWhole() throws {
        let store = try store()
        try store.save(["a": 1, "b": 2], to: .config)
        try store.save(["c": 3], to: .config)
        #expect(store.load(.config, as: [String: Int].self, fallback: [:]) == ["c": 3])
        #expect(dir.names() == ["config.json"])
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(ConfigStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/x/cfg"]).path == "/x/cfg/touchdeck")
        #expect(ConfigStore.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.config/touchdeck")
        #expect(
            ConfigStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path
                == "/h/.config/touchdeck")
    }
}

@Suite struct HostConfigTests {
    let dir = TempDir()

    @Test func layoutSurvivesSaveAndLoad() throws {
        var config = HostConfig()
        try config.layout.set(page: 0, index: 3, button: Button(label: "Blog", kind: .command("blogrun")))
        let store = try ConfigStore(directory: dir.url)
        try store.save(config, to: .config)
        let loaded = try ConfigStore(directory: dir.url).load(.config, as: HostConfig.self, fallback: HostConfig())
        #expect(loaded == config)
        #expect(loaded.layout.button(page: 0, index: 3)?.label == "Blog")
    }

    @Test func emptyObjectLoadsAsDefaults() throws {
        try dir.write("{}", to: "config.json")
        let store = try ConfigStore(directory: dir.url)
        let loaded = store.load(.config, as: HostConfig.self, fallback: HostConfig(hostName: "fallback"))
        #expect(loaded == HostConfig())
        #expect(store.problems.isEmpty)
    }

    @Test func layoutWithShortPageIsCorrupt() throws {
        try dir.write(#"{"layout":{"pages":[[null,null]]}}"#, to: "config.json")
        let store = try ConfigStore(directory: dir.url)
        let loaded = store.load(.config, as: HostConfig.self, fallback: HostConfig())
        #expect(loaded == HostConfig())
        #expect(store.problems.first?.contains("bad value at layout.pages") == true)
    }
}
