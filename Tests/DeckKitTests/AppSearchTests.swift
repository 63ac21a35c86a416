import DeckKit
import Testing

private struct SearchFixture: Decodable {
    struct Initials: Decodable {
        let text: String
        let initials: String
    }
    struct Result: Decodable, Equatable {
        let id: String
        let group: String
        let field: String?
        let range: [Int]?
    }
    struct Case: Decodable {
        let name: String
        let query: String
        let results: [Result]
    }
    let apps: [HostMessage.AppEntry]
    let choseong: [Initials]
    let cases: [Case]

    static func load() throws -> SearchFixture { try RuleFixture.load("search.json") }
}

private func names(_ query: String) throws -> [String] {
    AppSearch.search(try SearchFixture.load().apps, query: query).map(\.app.name)
}

@Test func searchFollowsTheSharedFixture() throws {
    let fixture = try SearchFixture.load()
    #expect(fixture.cases.count >= 16)
    for c in fixture.cases {
        let got = AppSearch.search(fixture.apps, query: c.query).map {
            SearchFixture.Result(
                id: $0.app.id, group: $0.group.rawValue, field: $0.field?.rawValue,
                range: $0.range.map { [$0.lowerBound, $0.upperBound] })
        }
        #expect(got == c.results, "\(c.name)")
    }
}

@Test func choseongFollowsTheSharedFixture() throws {
    for c in try SearchFixture.load().choseong {
        #expect(AppSearch.choseong(of: c.text) == c.initials)
    }
}

@Test func initialConsonantsMatch() throws {
    #expect(try names("ㅁㅁ") == ["메모"])
    #expect(try names("ㅁㄹ") == ["미리보기"])
}

@Test func englishNameInBundleIdMatches() throws {
    #expect(try names("notes") == ["메모"])
    #expect(try names("SAF") == ["Safari"])
}

@Test func groupsComeInOrderAndKeepCatalogOrder() {
    let apps = [
        HostMessage.AppEntry(id: "x.term", name: "Zed"),
        HostMessage.AppEntry(id: "b", name: "My Terminal"),
        HostMessage.AppEntry(id: "c", name: "Terminal"),
        HostMessage.AppEntry(id: "d", name: "Term 2"),
    ]
    let got = AppSearch.search(apps, query: "term")
    #expect(got.map(\.app.id) == ["c", "d", "b", "x.term"])
    #expect(got.map(\.group) == [.namePrefix, .namePrefix, .nameContains, .id])
    #expect(AppSearch.Group.allCases.sorted() == [.all, .namePrefix, .nameContains, .initials, .id])
}

@Test func syllableIndexUsesTheSeedFormula() throws {
    // syllable 0xAC00 + 588 × k is the first with initial k: 가 (0), 까 (1), 나 (2); 힣 (0xD7A3) is the last
    func text(_ values: [UInt32]) throws -> String {
        String(String.UnicodeScalarView(try values.map { try #require(Unicode.Scalar($0)) }))
    }
    #expect(AppSearch.choseong(of: try text([0xAC00, 0xAC00 + 588, 0xAC00 + 1176, 0xD7A3])) == "ㄱㄲㄴㅎ")
    #expect(AppSearch.choseong(of: try text([0xAC00 + 587, 0xAC00 + 588 * 18])) == "ㄱㅎ")
    #expect(AppSearch.initialConsonants.count == 19)
}
