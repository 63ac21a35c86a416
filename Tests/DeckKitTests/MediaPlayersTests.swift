import DeckKit
import Foundation
import Testing

/// The rule that picks the player a media key reaches (docs/ARCHITECTURE.md "Media keys").
@Suite struct MediaPlayersTests {
    private func chosen(_ players: MediaPlayers) -> String? { players.current?.name }

    @Test func noPlayerIsNoChoice() {
        var players = MediaPlayers()
        #expect(players.current == nil)
        players.observe([:])
        #expect(players.current == nil)
    }

    @Test func aPlayingPlayerWinsOverOnesThatChangedLater() {
        var players = MediaPlayers()
        players.observe(["mpris.vlc": .playing])
        players.observe(["mpris.vlc": .playing, "mpris.spotify": .paused])
        #expect(chosen(players) == "mpris.vlc")
        #expect(players.current?.status == .playing)
    }

    @Test func withNothingPlayingTheLastChangeWins() {
        var players = MediaPlayers()
        players.observe(["a": .playing, "b": .paused])
        players.observe(["a": .paused, "b": .paused])
        // The user just paused a: the next play resumes a, not b (which has been paused all along).
        #expect(chosen(players) == "a")
        players.observe(["a": .paused, "b": .stopped])
        #expect(chosen(players) == "b")
    }

    @Test func ofSeveralPlayingTheOneThatStartedLastWins() {
        var players = MediaPlayers()
        players.observe(["a": .playing, "b": .paused])
        players.observe(["a": .playing, "b": .playing])
        #expect(chosen(players) == "b")
    }

    @Test func aNewPlayerCountsAsAChange() {
        var players = MediaPlayers()
        players.observe(["a": .paused])
        players.observe(["a": .paused, "b": .stopped])
        #expect(chosen(players) == "b")
    }

    @Test func tiesGoToTheNameThatSortsFirst() {
        var players = MediaPlayers()
        players.observe(["zed": .paused, "amp": .paused, "mid": .paused])
        #expect(chosen(players) == "amp")
        players.observe(["zed": .playing, "amp": .playing, "mid": .paused])
        #expect(chosen(players) == "amp")
    }

    @Test func aPlayerThatLeftIsForgotten() {
        var players = MediaPlayers()
        players.observe(["a": .playing, "b": .paused])
        players.observe(["b": .paused])
        #expect(chosen(players) == "b")
        players.observe(["a": .paused, "b": .paused])
        // a is back: seen anew, so it is the latest change.
        #expect(chosen(players) == "a")
    }

    @Test func mprisStatusNames() {
        #expect(PlaybackStatus(mpris: "Playing") == .playing)
        #expect(PlaybackStatus(mpris: "Paused") == .paused)
        #expect(PlaybackStatus(mpris: "Stopped") == .stopped)
        #expect(PlaybackStatus(mpris: "playing") == nil)
    }

    @Test func mediaKeysRoundTripAndAreNotProtocol2() throws {
        for action in MediaAction.allCases {
            let button = Button(label: "M", kind: .media(action))
            let data = try JSONEncoder().encode(button)
            #expect(try JSONDecoder().decode(Button.self, from: data) == button)
            #expect(!button.kind.isProtocol2)
            #expect(button.kind.name == "media")
        }
        let wire = Data(#"{"label":"Next","kind":"media","action":"next"}"#.utf8)
        #expect(try JSONDecoder().decode(Button.self, from: wire).kind == .media(.next))
        let unknown = Data(#"{"label":"X","kind":"media","action":"shuffle"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Button.self, from: unknown) }
        let missing = Data(#"{"label":"X","kind":"media"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Button.self, from: missing) }
    }
}
