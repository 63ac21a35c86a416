import DeckKit
import Testing

private struct TextFixture: Decodable {
    struct Clean: Decodable {
        let name: String
        let input: String
        let output: String
    }
    struct Chunks: Decodable {
        let name: String
        let input: String
        let output: [String]
    }
    let maxCharacters: Int
    let maxChunkUTF16: Int
    let maxScalarsPerCharacter: Int
    let maxBytes: Int
    let clean: [Clean]
    let chunks: [Chunks]

    static func load() throws -> TextFixture { try RuleFixture.load("text-input.json") }
}

@Test func limitsMatchTheSharedFixture() throws {
    let fixture = try TextFixture.load()
    #expect(TextInput.maxCharacters == fixture.maxCharacters)
    #expect(TextInput.maxChunkUTF16 == fixture.maxChunkUTF16)
    #expect(TextInput.maxScalarsPerCharacter == fixture.maxScalarsPerCharacter)
    #expect(TextInput.maxBytes == fixture.maxBytes)
    #expect(TextInput.maxCharacters == 2000)
    #expect(TextInput.maxChunkUTF16 == 20)
}

@Test func cleanFollowsTheSharedFixture() throws {
    let cases = try TextFixture.load().clean
    #expect(cases.count >= 11)
    for c in cases {
        // compare scalars: Swift's == on String would accept a canonically equivalent result
        #expect(Array(TextInput.clean(c.input).unicodeScalars) == Array(c.output.unicodeScalars), "\(c.name)")
    }
}

@Test func chunksFollowTheSharedFixture() throws {
    let cases = try TextFixture.load().chunks
    #expect(cases.count >= 10)
    for c in cases {
        let got = TextInput.chunks(c.input).map { Array($0.unicodeScalars) }
        #expect(got == c.output.map { Array($0.unicodeScalars) }, "\(c.name)")
    }
}

@Test func cleanTurnsLineBreaksIntoSpaces() {
    #expect(TextInput.clean("git commit\r\n-m\tx\ny\r") == "git commit -m x y ")
}

@Test func cleanCutsAtTwoThousandCharacters() {
    let long = String(repeating: "👍🏽", count: 2500)
    let cleaned = TextInput.clean(long)
    #expect(cleaned.count == 2000)
    #expect(cleaned.unicodeScalars.count == 4000)
    #expect(TextInput.clean(String(repeating: "a", count: 2000)).count == 2000)
}

@Test func chunksNeverSplitACharacter() {
    let text = "x👍🏽한\r\n" + String(repeating: "가👍🏽\u{1112}\u{1161}\u{11AB}", count: 30) + "🇰🇷"
    let pieces = TextInput.chunks(text)
    #expect(pieces.joined() == text)
    #expect(pieces.allSatisfy { $0.utf16.count <= TextInput.maxChunkUTF16 })
    // every piece boundary is a character boundary: re-splitting each piece keeps its characters whole
    #expect(pieces.map(\.count).reduce(0, +) == text.count)
    #expect(pieces.count > 1)
}

@Test func fortyFiveSyllablesTypeAsTwentyTwentyFive() {
    let pieces = TextInput.chunks(String(repeating: "가", count: 45))
    #expect(pieces.map(\.count) == [20, 20, 5])
}

@Test func pressKeyReadsNamedKeysCharactersAndModifiers() throws {
    func read(_ json: String) throws -> KeyChord {
        guard case .pressKey(let press) = try DeviceMessage.decode(json) else {
            throw MessageError.malformed("not pressKey")
        }
        return press.chord
    }
    #expect(try read(#"{"type":"pressKey","key":"esc"}"#) == KeyChord(.esc))
    #expect(
        try read(#"{"type":"pressKey","key":"s","modifiers":["ctrl"]}"#) == KeyChord(character: "s", modifiers: [.ctrl])
    )
    #expect(
        try read(#"{"type":"pressKey","key":"tab","modifiers":["alt","shift"]}"#)
            == KeyChord(.tab, modifiers: [.alt, .shift]))
    #expect(
        try read(#"{"type":"pressKey","key":"f11","modifiers":["super"]}"#) == KeyChord(.f11, modifiers: [.superKey]))
    for bad in [
        #"{"type":"pressKey","key":"ab"}"#, #"{"type":"pressKey","key":" "}"#, #"{"type":"pressKey","key":"\n"}"#,
        #"{"type":"pressKey","key":"s","modifiers":["ctrl","ctrl"]}"#,
        #"{"type":"pressKey","key":"s","modifiers":["hyper"]}"#, #"{"type":"pressKey","key":"F5"}"#,
    ] {
        #expect(throws: MessageError.self) { try DeviceMessage.decode(bad) }
    }
    let encoded = String(
        decoding: DeviceMessage.pressKey(.init(chord: KeyChord(character: "z", modifiers: [.ctrl]))).encode(),
        as: UTF8.self)
    #expect(encoded == #"{"key":"z","modifiers":["ctrl"],"type":"pressKey"}"#)
}
