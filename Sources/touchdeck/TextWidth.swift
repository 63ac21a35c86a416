/// How many terminal columns text takes, as a terminal draws it: East Asian wide and fullwidth characters
/// (CJK, Hangul, fullwidth forms) and emoji shown as pictures take two, combining marks and format characters
/// none, everything else one. This is what `wcwidth` answers under a UTF-8 locale, without depending on the
/// locale the CLI happens to run in.
enum TextWidth {
    /// The columns `text` takes.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// `text` followed by spaces up to `width` columns (unchanged when it is already as wide).
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }

    static func columns(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul vowels and final consonants that join the syllable before them.
        if (0x1160...0x11FF).contains(scalar.value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// The East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt, merged into ranges.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul initial consonants
        0x231A...0x231B, 0x2329...0x232A,
        0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms, small forms
        0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs and emoji
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK extensions B and later
    ]
}
