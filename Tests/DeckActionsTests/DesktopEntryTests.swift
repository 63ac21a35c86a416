import DeckDesktop
import Testing

@testable import DeckActions

@Suite struct DesktopEntryTests {
    let sample = """
        # comment
        [Desktop Entry]
        Type=Application
        Name=Text Editor
        Name[ko]=텍스트 편집기
        Name[sr@latin]=Uređivač
        Name[pt_BR]=Editor de texto
        Comment=Tabs\\tand\\snewline\\nhere
        Categories=Utility;TextEditor;
        Keywords=a\\;b;c
        NoDisplay=true
        Name=Duplicate ignored

        [Desktop Action new-window]
        Name=Should not leak
        Exec=other
        """

    @Test func readsOnlyTheMainGroupAndFirstKey() {
        let entry = DesktopEntry(parsing: sample)
        #expect(entry.string("Name") == "Text Editor")
        #expect(entry.string("Exec") == nil)
        #expect(entry.string("Type") == "Application")
    }

    @Test func unescapesStringsAndLists() {
        let entry = DesktopEntry(parsing: sample)
        #expect(entry.string("Comment") == "Tabs\tand newline\nhere")
        #expect(entry.list("Categories") == ["Utility", "TextEditor"])
        #expect(entry.list("Keywords") == ["a;b", "c"])
        #expect(entry.bool("NoDisplay"))
        #expect(!entry.bool("Hidden"))
    }

    @Test(arguments: [
        ("ko_KR.UTF-8", "텍스트 편집기"),
        ("ko", "텍스트 편집기"),
        ("sr_RS@latin", "Uređivač"),
        ("pt_BR.UTF-8", "Editor de texto"),
        ("pt_PT", "Text Editor"),
        ("C.UTF-8", "Text Editor"),
        ("POSIX", "Text Editor"),
    ])
    func picksTheLocalizedName(locale: String, expected: String) {
        let entry = DesktopEntry(parsing: sample)
        #expect(entry.localized("Name", for: DesktopLocale(locale)) == expected)
    }

    @Test func localeCandidatesFollowTheSpecOrder() {
        #expect(DesktopLocale("sr_YU.UTF-8@Latn")?.candidates == ["sr_YU@Latn", "sr_YU", "sr@Latn", "sr"])
        #expect(DesktopLocale("ko_KR.UTF-8")?.candidates == ["ko_KR", "ko"])
        #expect(DesktopLocale("C") == nil)
    }
}
