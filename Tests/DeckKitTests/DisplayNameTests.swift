import DeckKit
import Testing

private struct NamesFixture: Decodable {
    struct Case: Decodable {
        let name: String
        let input: String
        let output: String
    }
    struct UniqueCase: Decodable {
        let name: String
        let wanted: String
        let taken: [String]
        let output: String
    }
    let maxCharacters: Int
    let fallback: String
    let clean: [Case]
    let strip: [Case]
    let unique: [UniqueCase]

    static func load() throws -> NamesFixture { try RuleFixture.load("names.json") }
}

// Scalars are compared: Swift's == on String would accept a canonically equivalent result.
private func same(_ a: String, _ b: String) -> Bool { Array(a.unicodeScalars) == Array(b.unicodeScalars) }

@Test func displayNameLimitsMatchTheSharedFixture() throws {
    let fixture = try NamesFixture.load()
    #expect(DisplayName.maxCharacters == fixture.maxCharacters)
    #expect(DisplayName.fallback == fixture.fallback)
}

@Test func displayNameCleanFollowsTheSharedFixture() throws {
    let cases = try NamesFixture.load().clean
    #expect(cases.count >= 15)
    for c in cases { #expect(same(DisplayName.clean(c.input), c.output), "\(c.name)") }
}

@Test func displayNameStripFollowsTheSharedFixture() throws {
    for c in try NamesFixture.load().strip { #expect(same(DisplayName.strip(c.input), c.output), "\(c.name)") }
}

@Test func displayNameUniqueFollowsTheSharedFixture() throws {
    let cases = try NamesFixture.load().unique
    #expect(cases.count >= 8)
    for c in cases { #expect(same(DisplayName.unique(c.wanted, taken: c.taken), c.output), "\(c.name)") }
}

@Test func everyHiddenCodePointIsRemovedAndItsNeighboursAreNot() {
    let hidden: [ClosedRange<UInt32>] = [0x00...0x1F, 0x7F...0x9F, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069]
    for range in hidden {
        for value in range {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayName.clean("a\(Character(scalar))b") == "ab", "U+\(String(value, radix: 16))")
        }
    }
    for value: UInt32 in [0x20AC, 0x200D, 0x2010, 0x2029, 0x202F, 0x206A, 0xA1] {
        let kept = "a\(Character(Unicode.Scalar(value)!))b"
        #expect(DisplayName.clean(kept) == kept, "U+\(String(value, radix: 16)) must stay")
    }
}

@Test func aSetButtonLabelLosesItsOverrideWhenApplied() throws {
    var layout = DeckLayout()
    let edit = DeviceMessage.SetButton(
        page: 0, index: 0, button: Button(label: " \u{202E}Blog\u{0007}", kind: .command("blogrun")))
    try edit.apply(to: &layout)
    #expect(layout.button(page: 0, index: 0)?.label == "Blog")
}

/// A stranger's hello may carry a 64 KiB name: only its first `readScalars` scalars are read (issue 27: stripping
/// all of it held up the actor for 13 ms), which still gives every real name whole.
@Test func onlyTheStartOfAHugeNameIsRead() {
    let huge = "\u{202E} Kitchen tablet " + String(repeating: "x", count: 64 * 1024)
    #expect(DisplayName.clean(huge) == "Kitchen tablet " + String(repeating: "x", count: 49))
    let emoji = String(repeating: "👩‍👩‍👧‍👦", count: 70)  // 7 scalars each: 64 of them fit in the scalars read
    #expect(DisplayName.clean(emoji) == String(repeating: "👩‍👩‍👧‍👦", count: 64))
    let zalgo = "Z" + String(repeating: "\u{301}", count: 32 * 1024) + "ed"
    #expect(DisplayName.clean(zalgo) == "Z" + String(repeating: "\u{301}", count: DisplayName.readScalars - 1))
    let lateName = String(repeating: " ", count: DisplayName.readScalars) + "iPad"
    #expect(DisplayName.clean(lateName) == "", "a name after the scalars read is not read")
}
