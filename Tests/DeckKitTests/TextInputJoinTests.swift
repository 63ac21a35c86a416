import DeckKit
import Testing

// Found by the `typing` libFuzzer harness (Tests/fuzz/typing.swift): a character cut to its first 16 scalars,
// or the space put for a line break, joined the next character, so the cleaned text held characters of 17
// scalars and, chained, one "character" of hundreds.

private let leading = "\u{1100}"  // a Hangul leading consonant: L L … stays one character
private let vowel = "\u{1161}"

@Test func aCutCharacterDoesNotJoinTheNextOne() {
    let long = String(repeating: leading, count: 16) + vowel  // one character of 17 scalars
    for input in [long + leading, String(repeating: long, count: 50)] {
        let cleaned = TextInput.clean(input)
        #expect(cleaned.allSatisfy { $0.unicodeScalars.count <= TextInput.maxScalarsPerCharacter })
        #expect(TextInput.clean(cleaned) == cleaned)
    }
    #expect(
        Array(TextInput.clean(long + leading).unicodeScalars)
            == Array(String(repeating: leading, count: 16).unicodeScalars))
    // 👍, 14 marks, ZWJ, a mark: cut before the last mark it ends in ZWJ, which would join the next emoji.
    let emoji = "\u{1F44D}" + String(repeating: "\u{0301}", count: 14) + "\u{200D}\u{0301}"
    let cleaned = TextInput.clean(emoji + "\u{1F44D}")
    #expect(cleaned.allSatisfy { $0.unicodeScalars.count <= TextInput.maxScalarsPerCharacter })
}

@Test func theSpaceForALineBreakDoesNotTakeTheNextMarks() {
    let marks = String(repeating: "\u{0301}", count: 16)
    let cleaned = TextInput.clean(String(repeating: "\n" + marks, count: 10))
    #expect(cleaned.allSatisfy { $0.unicodeScalars.count <= TextInput.maxScalarsPerCharacter })
    #expect(cleaned == String(repeating: " ", count: 10))
    #expect(TextInput.clean("héllo\n세계\t👍🏽") == "héllo 세계 👍🏽")
}
