import DeckDesktop
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
        var layout = DeckLayout()
        try layout.set(page: 0, index: 3, button: Button(label: "Blog", kind: .command("blogrun")))
        let config = HostConfig(layout: layout)
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

/// Profiles (PROTOCOL §6 "Profiles"): a config.json written before them, in the form this host wrote until then
/// (pretty, keys sorted, one `layout`), becomes one profile called "Default" holding every key, its grid size, a
/// folder's keys, a toggle's state and the looks; the next save writes the profiles form, which reads back the same.
@Suite struct ProfileMigrationTests {
    let dir = TempDir()

    static let beforeProfiles = """
        {
          "hostName" : "desk",
          "layout" : {
            "grid" : "3x2",
            "pages" : [
              [
                {
                  "color" : "teal",
                  "command" : "blogrun",
                  "icon" : {
                    "emoji" : "📝"
                  },
                  "kind" : "command",
                  "label" : "Blog"
                },
                {
                  "kind" : "folder",
                  "label" : "Box",
                  "pages" : [
                    [
                      null,
                      {
                        "kind" : "terminal",
                        "directory" : "~/src",
                        "label" : "Src"
                      },
                      null,
                      null,
                      null,
                      null
                    ],
                    [
                      null,
                      null,
                      null,
                      null,
                      null,
                      null
                    ]
                  ]
                },
                {
                  "kind" : "toggle",
                  "label" : "Mic",
                  "off" : {
                    "command" : "unmute",
                    "kind" : "command",
                    "label" : ""
                  },
                  "offLabel" : "",
                  "on" : {
                    "command" : "mute",
                    "kind" : "command",
                    "label" : ""
                  },
                  "onLabel" : "",
                  "state" : "on"
                },
                null,
                null,
                null
              ],
              [
                null,
                null,
                null,
                null,
                null,
                null
              ]
            ]
          }
        }
        """

    @Test func aConfigFromBeforeProfilesIsOneProfileCalledDefaultWithNothingLost() throws {
        try dir.write(Self.beforeProfiles, to: "config.json")
        let store = try ConfigStore(directory: dir.url)
        let loaded = store.load(.config, as: HostConfig.self, fallback: HostConfig())
        #expect(store.problems.isEmpty)
        #expect(loaded.profiles.names == ["Default"] && loaded.profiles.current == "Default")
        #expect(loaded.hostName == "desk")
        let layout = loaded.layout
        #expect(layout.grid == .threeByTwo && layout.pages.count == 2)
        #expect(layout.button(page: 0, index: 0)?.look == KeyLook(color: "teal", icon: .emoji("📝")))
        #expect(layout.button(page: 0, index: 1, in: [.init(page: 0, index: 1)])?.label == "Src")
        guard case .toggle(let toggle)? = layout.button(page: 0, index: 2)?.kind else {
            Issue.record("the toggle is gone")
            return
        }
        #expect(toggle.isOn)
        let old = try JSONSerialization.jsonObject(with: Data(Self.beforeProfiles.utf8)) as? [String: Any]
        try store.save(loaded, to: .config)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: store.url(.config))) as? [String: Any]
        #expect(saved?["layout"] == nil && saved?["currentProfile"] as? String == "Default")
        let profiles = saved?["profiles"] as? [[String: Any]]
        #expect(profiles?.count == 1 && profiles?.first?["name"] as? String == "Default")
        // Every byte of the old deck is in the profile: the same JSON value.
        #expect(
            NSDictionary(dictionary: profiles?.first?["layout"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: old?["layout"] as? [String: Any] ?? ["missing": true]))
        #expect(
            try ConfigStore(directory: dir.url).load(.config, as: HostConfig.self, fallback: HostConfig()) == loaded)
    }

    @Test func profilesWithClashingNamesAndAnUnknownCurrentAreMadeSound() throws {
        let text = """
            {"profiles":[{"name":"Phone","layout":{"pages":[[null,null,null,null,null,null,null,null,null,null,null,null]]}},
            {"name":"phone","layout":{"pages":[[null,null,null,null,null,null,null,null,null,null,null,null]]}}],
            "currentProfile":"Gone"}
            """
        try dir.write(text, to: "config.json")
        let loaded = try ConfigStore(directory: dir.url).load(.config, as: HostConfig.self, fallback: HostConfig())
        #expect(loaded.profiles.names == ["Phone", "phone (2)"])
        #expect(loaded.profiles.current == "Phone")
    }
}

@Test func aDeviceRecordFromBeforeTheEditPermissionMayStillEdit() throws {
    let old = #"{"id":"ab","name":"iPad","secret":"AAAA","screenAllowed":true}"#
    let record = try JSONDecoder().decode(DeviceRecord.self, from: Data(old.utf8))
    #expect(record.editAllowed && record.screenAllowed)
    var denied = record
    denied.editAllowed = false
    let again = try JSONDecoder().decode(DeviceRecord.self, from: try JSONEncoder().encode(denied))
    #expect(!again.editAllowed)
}
