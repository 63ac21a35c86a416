import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

#if canImport(Glibc)
    import Glibc
#endif

/// Corrupt config files and control requests, seeded. A file that does not load must be kept aside byte
/// for byte, and no earlier kept file may be lost; the control socket answers every line it gets.
@Suite struct ConfigFuzzTests {
    static func seeds() throws -> [ConfigStore.File: Data] {
        var layout = DeckLayout()
        try layout.set(
            page: 0, index: 3, button: Button(label: "Files", kind: .app(appId: "org.gnome.Nautilus.desktop")))
        try layout.set(page: 1, index: 0, button: Button(label: "Blog", kind: .command("blogrun")))
        let device = DeviceRecord(
            id: "00112233445566778899aabbccddeeff", name: "iPad", secret: Data(repeating: 7, count: 32),
            lastSeen: Date(timeIntervalSince1970: 1_600_000_000), lastProtocol: 2)
        return [
            .config: try ConfigStore.encoder.encode(HostConfig(layout: layout, hostName: "desk")),
            .devices: try ConfigStore.encoder.encode(DeviceFile(devices: [device])),
        ]
    }

    static func mutated(_ data: Data, _ rng: inout FuzzRNG) -> Data {
        guard rng.chance(60), let tree = try? JSONTree(parsing: data) else {
            return ByteMutator.mutate(data, rng: &rng)
        }
        return JSONMutator.mutate(tree, rng: &rng, types: ["config"]).bytes
    }

    /// The files of the directory and their bytes.
    static func contents(_ dir: TempDir) -> [String: Data] {
        dir.names().reduce(into: [:]) { $0[$1] = try? Data(contentsOf: dir.url.appendingPathComponent($1)) }
    }

    @Test func everyUnreadableFileIsKeptAsideAndNoneIsLost() throws {
        var rng = FuzzRNG(seed: 0x5EED_0A01)
        let seeds = try Self.seeds()
        let dir = TempDir()
        // One fixed millisecond for every load: two corrupt files of the same name in the same millisecond
        // (or a clock set back) must still both be kept.
        let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_700_000_000) }
        var kept = 0
        for i in 0..<200 {
            let file = rng.pick(ConfigStore.File.allCases)
            let bytes = Self.mutated(seeds[file] ?? Data(), &rng)
            try bytes.write(to: dir.url.appendingPathComponent(file.rawValue))
            let before = Self.contents(dir)
            let store = try ConfigStore(directory: dir.url, now: now)
            if file == .config {
                _ = store.load(.config, as: HostConfig.self, fallback: HostConfig())
            } else {
                _ = DeviceBook(store: store)
            }
            let after = Self.contents(dir)
            let added = Set(after.keys).subtracting(before.keys)
            #expect(
                before.allSatisfy { $0.key == file.rawValue || after[$0.key] == $0.value }, "#\(i): a kept file changed"
            )
            if after[file.rawValue] == nil {
                #expect(added.count == 1 && added.first.flatMap { after[$0] } == bytes, "#\(i): not kept aside whole")
                #expect(store.problems.count == 1, "#\(i)")
                kept += 1
            } else {
                #expect(after[file.rawValue] == bytes && added.isEmpty && store.problems.isEmpty, "#\(i)")
            }
        }
        print("fuzz: \(kept) of 200 config files kept aside")
        #expect(kept > 60 && kept < 190)
    }

    /// The exact sequence that lost a file: two corrupt `config.json` loaded in the same millisecond; the
    /// second rename replaced the first kept copy.
    @Test func secondCorruptFileInTheSameMillisecondIsKeptToo() throws {
        let dir = TempDir()
        let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_700_000_000) }
        for text in ["{\"layout\": [1, 2", "{\"layout\": [3"] {
            try dir.write(text, to: "config.json")
            _ = try ConfigStore(directory: dir.url, now: now).load(.config, as: HostConfig.self, fallback: HostConfig())
        }
        #expect(dir.names() == ["config.json.corrupt-1700000000000", "config.json.corrupt-1700000000000-2"])
        #expect(try dir.read("config.json.corrupt-1700000000000") == "{\"layout\": [1, 2")
        #expect(try dir.read("config.json.corrupt-1700000000000-2") == "{\"layout\": [3")
    }
}
