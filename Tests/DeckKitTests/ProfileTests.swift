import DeckKit
import Foundation
import Testing

/// Profiles (PROTOCOL §6 "Profiles"): the clash rule and the profile files of `Tests/Fixtures/rules/profiles.json`,
/// and the rules of the profile set itself.
@Suite struct ProfileTests {
    static var table: [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rules/profiles.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static var nameCases: [[String: Any]] { table["names"] as? [[String: Any]] ?? [] }
    static var fileCases: [[String: Any]] { table["files"] as? [[String: Any]] ?? [] }

    @Test func theTableHoldsCasesAndTheLimitsAreTheHosts() {
        #expect(Self.nameCases.count >= 5 && Self.fileCases.count >= 10)
        #expect(Self.table["maxBytes"] as? Int == ProfileFile.maxBytes)
        #expect(Self.table["version"] as? Int == ProfileFile.version)
    }

    @Test func theNameClashRuleFollowsTheTable() {
        for entry in Self.nameCases {
            let wanted = entry["wanted"] as? String ?? ""
            let taken = entry["taken"] as? [String] ?? []
            #expect(ProfileSet.uniqueName(wanted, taken: taken) == entry["expect"] as? String, "\(wanted) \(taken)")
        }
    }

    @Test func profileFilesAreReadOrRefusedWholeAsTheTableSays() throws {
        for entry in Self.fileCases {
            let name = entry["name"] as? String ?? "?"
            let data: Data
            if let text = entry["text"] as? String {
                data = Data(text.utf8)
            } else {
                data = try JSONSerialization.data(withJSONObject: entry["file"] ?? [:])
            }
            let expect = entry["expect"] as? String
            do {
                let file = try ProfileFile.read(data)
                #expect(expect == "ok", "\(name): read, but the table says \(expect ?? "?")")
                #expect(file.profile.name == entry["profile"] as? String, "\(name)")
                if let icons = entry["icons"] as? [String] { #expect(file.icons.keys.sorted() == icons, "\(name)") }
                if let label = entry["label"] as? String {
                    #expect(file.profile.layout.button(page: 0, index: 0)?.label == label, "\(name)")
                }
            } catch {
                #expect(error.name == expect, "\(name): \(error)")
            }
        }
    }

    @Test func aFileLargerThanTheCapIsRefusedBeforeItIsRead() {
        let huge = Data(repeating: UInt8(ascii: " "), count: ProfileFile.maxBytes + 1)
        #expect(throws: ProfileFileError.tooLarge(limit: ProfileFile.maxBytes)) { try ProfileFile.read(huge) }
    }

    @Test func anExportedProfileReadsBackTheSame() throws {
        var layout = DeckLayout()
        try layout.resize(to: .fiveByThree)
        try layout.set(page: 0, index: 4, button: Button(label: "Big", kind: .profile("Default")))
        let png = ProfileFile.pngSignature + Data(repeating: 7, count: 20)
        let icon = "0123456789abcdef.png"
        try layout.set(
            page: 0, index: 1, button: Button(label: "Pic", kind: .command("x"), look: KeyLook(icon: .image(icon))))
        let file = ProfileFile(profile: Profile(name: "Phone", layout: layout), icons: [icon: png])
        #expect(try ProfileFile.read(file.encoded()) == file)
    }

    @Test func theSetKeepsOneProfileAndACurrentThatExists() throws {
        var set = ProfileSet()
        #expect(set.names == ["Default"] && set.current == "Default")
        try set.add("Phone")
        #expect(throws: ProfileError.nameTaken("phone")) { try set.add("phone") }
        #expect(throws: ProfileError.badName) { try set.add(" \u{202E} ") }
        #expect(try set.adding(imported: Profile(name: "PHONE")) == "PHONE (2)")
        try set.switchCurrent(to: "phone")
        #expect(set.current == "Phone", "found ignoring case, stored as named")
        try set.remove("Phone")
        #expect(set.current == "Default", "deleting the current one makes the first current")
        try set.remove("PHONE (2)")
        #expect(throws: ProfileError.lastProfile) { try set.remove("Default") }
        #expect(throws: ProfileError.noSuchProfile("Gone")) { try set.switchCurrent(to: "Gone") }
    }

    @Test func aProfileKeyNamesAProfileAndIsAKindOlderDevicesDoNotKnow() throws {
        var layout = DeckLayout()
        let key = Button(label: "Phone deck", kind: .profile("Phone"))
        try layout.set(page: 0, index: 0, button: key)
        #expect(!key.kind.isProtocol2)
        let wire = try JSONEncoder().encode(key)
        #expect(try JSONDecoder().decode(Button.self, from: wire) == key)
        #expect(throws: LayoutError.badProfileName) {
            try layout.set(page: 0, index: 1, button: Button(label: "x", kind: .profile("")))
        }
    }
}
