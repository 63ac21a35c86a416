import Foundation

/// Finds apps in the catalog as the user types (the web client mirrors these rules in JavaScript).
///
/// Matching is case-insensitive and whole-character. Results come in four groups, in this order, and
/// keep the catalog's order within a group: the name starts with the query; the name contains it; the
/// query is only Hangul initial consonants and the name's initials contain it (`ㅁㅁ` finds 메모);
/// the id contains it.
public enum AppSearch {
    /// Why an app matched; also the order of the groups.
    public enum Group: String, Comparable, Sendable, CaseIterable {
        /// A blank query lists every app.
        case all
        case namePrefix
        case nameContains
        case initials
        case id

        public static func < (a: Group, b: Group) -> Bool { a.order < b.order }

        private var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// Which text to highlight.
    public enum Field: String, Sendable {
        case name, id
    }

    /// One result.
    public struct Match: Equatable, Sendable {
        public var app: HostMessage.AppEntry
        public var group: Group
        /// The text holding the match; nil for a blank query.
        public var field: Field?
        /// The first match in that text, in UTF-16 offsets (what a browser's string indices count).
        public var range: Range<Int>?
    }

    /// The 19 initial consonants in syllable order, as the keyboard types them (compatibility jamo).
    public static let initialConsonants: [Character] = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")

    private static let firstSyllable: UInt32 = 0xAC00
    private static let lastSyllable: UInt32 = 0xD7A3
    /// Syllables sharing one initial: 21 vowels × 28 finals.
    private static let syllablesPerInitial: UInt32 = 588

    /// Each Hangul syllable replaced by its initial consonant ("미리보기" → "ㅁㄹㅂㄱ"); every other
    /// character is kept, so the result has as many characters as `text`.
    public static func choseong(of text: String) -> String {
        String(text.map(initial))
    }

    private static func initial(of character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let value = scalars.first?.value,
            (firstSyllable...lastSyllable).contains(value)
        else { return character }
        return initialConsonants[Int((value - firstSyllable) / syllablesPerInitial)]
    }

    /// The apps matching `query`, grouped and ordered as described above. Surrounding whitespace in
    /// the query is ignored; a blank query returns every app in catalog order.
    public static func search(_ apps: [HostMessage.AppEntry], query: String) -> [Match] {
        let needle = folded(query.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !needle.isEmpty else {
            return apps.map { Match(app: $0, group: .all, field: nil, range: nil) }
        }
        let onlyInitials = needle.allSatisfy { $0.count == 1 && initialConsonants.contains(Character($0)) }
        let matches = apps.compactMap { match($0, needle: needle, onlyInitials: onlyInitials) }
        // a stable sort by group keeps the catalog order within each group
        return Group.allCases.flatMap { group in matches.filter { $0.group == group } }
    }

    private static func match(_ app: HostMessage.AppEntry, needle: [String], onlyInitials: Bool) -> Match? {
        let name = Text(app.name, fold: { String($0).lowercased() })
        if let range = name.find(needle), range.lowerBound == 0 {
            return Match(app: app, group: .namePrefix, field: .name, range: range)
        }
        if let range = name.find(needle) {
            return Match(app: app, group: .nameContains, field: .name, range: range)
        }
        if onlyInitials, let range = Text(app.name, fold: { String(initial(of: $0)) }).find(needle) {
            return Match(app: app, group: .initials, field: .name, range: range)
        }
        if let range = Text(app.id, fold: { String($0).lowercased() }).find(needle) {
            return Match(app: app, group: .id, field: .id, range: range)
        }
        return nil
    }

    /// The characters of `text`, each lowercased on its own so matches stay on character boundaries.
    private static func folded(_ text: String) -> [String] {
        text.map { String($0).lowercased() }
    }

    /// A text prepared for matching: one folded string per character, plus UTF-16 offsets.
    private struct Text {
        let characters: [String]
        /// `offsets[i]` is where character `i` starts; the last entry is the total length.
        let offsets: [Int]

        init(_ text: String, fold: (Character) -> String) {
            characters = text.map(fold)
            offsets = text.reduce(into: [0]) { $0.append(($0.last ?? 0) + $1.utf16.count) }
        }

        /// The first place the needle's characters occur, as a UTF-16 range of the original text.
        func find(_ needle: [String]) -> Range<Int>? {
            guard needle.count <= characters.count else { return nil }
            for start in 0...(characters.count - needle.count)
            where characters[start..<(start + needle.count)].elementsEqual(needle) {
                return offsets[start]..<offsets[start + needle.count]
            }
            return nil
        }
    }
}
