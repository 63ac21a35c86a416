/// Rules for text typed into the host (`typeText`).
///
/// Both sides apply `clean`: the device before sending, the host again on arrival, so a faulty or
/// hostile sender still cannot press Enter in a terminal through a pasted line break.
public enum TextInput {
    /// The most characters (as a person counts them) one `typeText` carries.
    public static let maxCharacters = 2000
    /// The most UTF-16 units typed in one go; longer strings are typed in pieces this size.
    public static let maxChunkUTF16 = 20
    /// The most UTF-16 units the host types in one turn at the desktop's keyboard: a longer text is typed turn by
    /// turn, and keys other devices sent meanwhile go between its turns instead of waiting for all of it.
    public static let maxTurnUTF16 = 256

    /// The most Unicode scalars one character keeps: a base and its marks (a family emoji is 7), never the
    /// two million combining marks a hostile device once sent as "one character" (it typed for 12.8 s).
    public static let maxScalarsPerCharacter = 16
    /// The most UTF-8 bytes one text keeps.
    public static let maxBytes = 32768

    /// Line breaks (LF, CR, CR LF and the other Unicode newlines) and tabs become one space each; each
    /// character keeps its first `maxScalarsPerCharacter` scalars; the text is cut after `maxCharacters`
    /// characters or before the character that would pass `maxBytes`, never inside one. A character that would
    /// join the one kept before it (only after a cut or a replaced line break) is left out.
    public static func clean(_ input: String) -> String {
        var out = ""
        var count = 0
        var bytes = 0
        var previous: String?
        for character in input {
            guard count < maxCharacters else { break }
            var kept = String(character.isNewline || character == "\t" ? " " : character)
            if kept.unicodeScalars.count > maxScalarsPerCharacter {
                kept = String(String.UnicodeScalarView(kept.unicodeScalars.prefix(maxScalarsPerCharacter)))
            }
            // A cut character, or the space for a line break, can join the next one into a character over the
            // limit (a cut syllable before a leading consonant, a space before a lone mark): that one is left out.
            if let previous, (previous + kept).count == 1 { continue }
            bytes += kept.utf8.count
            guard bytes <= maxBytes else { break }
            out += kept
            previous = kept
            count += 1
        }
        return out
    }

    /// Splits `text` into pieces of at most `limit` UTF-16 units (`maxChunkUTF16` unless told) without splitting
    /// a character (👍🏽 is four units, a decomposed Hangul syllable three, CR LF two). A single character longer
    /// than the limit becomes a piece of its own.
    public static func chunks(_ input: String, limit: Int = maxChunkUTF16) -> [String] {
        var result: [String] = []
        var current = ""
        var currentUnits = 0
        for character in input {
            let units = character.utf16.count
            if currentUnits > 0 && currentUnits + units > limit {
                result.append(current)
                current = ""
                currentUnits = 0
            }
            current.append(character)
            currentUnits += units
        }
        if currentUnits > 0 { result.append(current) }
        return result
    }
}
