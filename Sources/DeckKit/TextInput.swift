/// Rules for text typed into the host (`typeText`).
///
/// Both sides apply `clean`: the device before sending, the host again on arrival, so a faulty or
/// hostile sender still cannot press Enter in a terminal through a pasted line break.
public enum TextInput {
    /// The most characters (as a person counts them) one `typeText` carries.
    public static let maxCharacters = 2000
    /// The most UTF-16 units typed in one go; longer strings are typed in pieces this size.
    public static let maxChunkUTF16 = 20

    /// Line breaks (LF, CR, CR LF and the other Unicode newlines) and tabs become one space each; the
    /// text is cut after `maxCharacters` characters, never inside one.
    public static func clean(_ input: String) -> String {
        var out = ""
        var count = 0
        for character in input {
            guard count < maxCharacters else { break }
            out.append(character.isNewline || character == "\t" ? " " : character)
            count += 1
        }
        return out
    }

    /// Splits `text` into pieces of at most `maxChunkUTF16` UTF-16 units without splitting a character
    /// (👍🏽 is four units, a decomposed Hangul syllable three, CR LF two). A single character longer
    /// than the limit becomes a piece of its own.
    public static func chunks(_ input: String) -> [String] {
        var result: [String] = []
        var current = ""
        var currentUnits = 0
        for character in input {
            let units = character.utf16.count
            if currentUnits > 0 && currentUnits + units > maxChunkUTF16 {
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
