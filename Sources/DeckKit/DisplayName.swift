/// Rules for text that one party gives and others are shown: device names (`hello.name`, `pairStart.name`,
/// `touchdeck devices rename`) and button labels. They reach desktop notifications, the CLI's table and other
/// devices' screens, so nothing in them may move the cursor, ring, or flip the text that follows (U+202E
/// turned `evil‮gpj.exe` into what reads as `evilexe.jpg`).
///
/// The web client mirrors `clean` and `unique` in `Web/core/names.js`; both are checked against
/// `Tests/Fixtures/rules/names.json`.
public enum DisplayName {
    /// The most characters (as a person counts them) a name keeps.
    public static let maxCharacters = 64

    /// What a device is called when it gives no usable name.
    public static let fallback = "Device"

    /// Removes control and bidi characters, trims spaces at both ends and keeps at most `maxCharacters`
    /// characters (never cutting one in half) of the first `readScalars` scalars. May return `""`.
    public static func clean(_ given: String) -> String {
        trimmed(String(keptStart(of: given).prefix(maxCharacters)))
    }

    /// The most scalars of a given name that are read: 16 for each character kept, more than any real name needs
    /// (an emoji sequence is a few). A stranger's 64 KiB `hello` name took the actor 13 ms (release build) when
    /// all of it was stripped before the first 64 characters were taken, and the presses of paired devices
    /// waited behind it; now a name costs microseconds whatever its length.
    public static let readScalars = maxCharacters * 16

    /// The first `readScalars` scalars of `given`, without hidden ones and leading spaces.
    static func keptStart(of given: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in given.unicodeScalars.prefix(readScalars) where !isHidden(scalar) {
            if kept.isEmpty && isSpace(scalar) { continue }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Removes control and bidi characters and trims, without a length limit: labels longer than the limit
    /// are refused by the layout rule (`LayoutError.fieldTooLong`) rather than cut.
    public static func strip(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !isHidden($0) })
        return trimmed(String(kept))
    }

    /// C0 and C1 controls, DEL, the directional marks (U+200E/F), embeddings and overrides (U+202A–202E) and
    /// isolates (U+2066–2069).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `wanted` (cleaned; `fallback` when empty) if no name in `taken` equals it ignoring case, else the
    /// first free of `wanted 2`, `wanted 3`…, shortening `wanted` so that the result still fits.
    public static func unique(_ wanted: String, taken: [String]) -> String {
        let base = clean(wanted).isEmpty ? fallback : clean(wanted)
        let used = Set(taken.map { $0.lowercased() })
        guard used.contains(base.lowercased()) else { return base }
        var number = 2
        while true {
            let suffix = " \(number)"
            let candidate = trimmed(String(base.prefix(maxCharacters - suffix.count))) + suffix
            if !used.contains(candidate.lowercased()) { return candidate }
            number += 1
        }
    }

    /// Spaces trimmed at both ends: every Unicode space separator, the line and paragraph separators and
    /// U+FEFF (the set JavaScript's `trim` uses, less the controls `strip` has removed already).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .spaceSeparator || scalar.value == 0x2028 || scalar.value == 0x2029
            || scalar.value == 0xFEFF
    }
}
