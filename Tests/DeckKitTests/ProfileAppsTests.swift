import DeckKit
import Foundation
import Testing

/// Decks that follow the focused app (DESIGN.md#deck): the names a profile keeps, how a focused app matches them,
/// and `FocusFollow`'s rule (the profile shown for the focused app, back to the shared one when the focus leaves,
/// a switch made by hand standing until the focus moves on).
struct ProfileAppsTests {
    private func profiles() throws -> ProfileSet {
        var set = ProfileSet()
        try set.add("Editing")
        try set.add("Browsing")
        try set.setApps(["org.gnome.TextEditor.desktop", "Gedit"], of: "editing")
        try set.setApps(["firefox.desktop"], of: "Browsing")
        return set
    }

    @Test func namesAreCleanedRepeatsDroppedAndBadOnesRefused() throws {
        #expect(try ProfileApps.checked([" gedit\u{202E} ", "GEDIT", "foot"]) == ["gedit", "foot"])
        #expect(throws: ProfileApps.Problem.badName(" ")) { try ProfileApps.checked([" "]) }
        let long = String(repeating: "x", count: ProfileApps.maxName + 1)
        #expect(throws: ProfileApps.Problem.badName(long)) { try ProfileApps.checked([long]) }
        let many = (0...ProfileApps.maxApps).map { "app\($0)" }
        #expect(throws: ProfileApps.Problem.tooMany(limit: 16)) { try ProfileApps.checked(many) }
        var set = try profiles()
        #expect(throws: ProfileError.noSuchProfile("Nope")) { try set.setApps(["x"], of: "Nope") }
    }

    @Test func aFocusedAppMatchesByClassOrAppIdIgnoringCaseAndTheDesktopEnding() throws {
        let set = try profiles()
        #expect(set.profile(forFocused: ["Navigator", "firefox"]) == "Browsing")
        #expect(set.profile(forFocused: ["org.gnome.texteditor"]) == "Editing")
        #expect(set.profile(forFocused: ["gedit", "Gedit"]) == "Editing")
        #expect(set.profile(forFocused: ["xterm", "XTerm"]) == nil)
        #expect(set.profile(forFocused: []) == nil)
    }

    @Test func followersShowTheFocusedAppsProfileAndTheSharedOneAgainAfter() throws {
        var set = try profiles()
        try set.switchCurrent(to: "Default")
        var changed = false
        var follow = FocusFollow()
        #expect(follow.sharedProfile(set) == "Default")
        changed = follow.focus(["Navigator", "firefox"], in: set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Browsing")
        changed = follow.focus(["Navigator", "firefox"], in: set)
        #expect(!changed, "the same app again changes nothing")
        changed = follow.focus(["gedit", "Gedit"], in: set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Editing")
        changed = follow.focus(["xterm", "XTerm"], in: set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Default", "back to the profile they were on")
    }

    @Test func aSwitchByHandStandsUntilTheFocusMovesOn() throws {
        var set = try profiles()
        var changed = false
        var follow = FocusFollow()
        follow.focus(["firefox"], in: set)
        try set.switchCurrent(to: "Editing")
        follow.switchedShared()
        changed = follow.recheck(set)
        #expect(!changed)
        #expect(follow.sharedProfile(set) == "Editing")
        changed = follow.focus(["foot"], in: set)
        #expect(!changed, "no profile before, none now")
        changed = follow.focus(["firefox"], in: set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Browsing")
    }

    @Test func renamingDeletingAndChangingAppsAreFollowed() throws {
        var set = try profiles()
        var changed = false
        var follow = FocusFollow()
        follow.focus(["firefox"], in: set)
        try set.rename("Browsing", to: "Web")
        changed = follow.recheck(set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Web")
        try set.setApps([], of: "Web")
        changed = follow.recheck(set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == set.current)
        try set.setApps(["FIREFOX"], of: "Editing")
        changed = follow.recheck(set)
        #expect(changed)
        #expect(follow.sharedProfile(set) == "Editing")
        try set.remove("Editing")
        changed = follow.recheck(set)
        #expect(changed)
        #expect(follow.shown == nil)
    }

    @Test func appsAreKeptInTheConfigAndLeftOutWhenThereAreNone() throws {
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let profile = Profile(name: "Web", apps: ["firefox"])
        let encoded = String(decoding: try sorted.encode(profile), as: UTF8.self)
        #expect(encoded.contains(#""apps":["firefox"]"#))
        #expect(try JSONDecoder().decode(Profile.self, from: Data(encoded.utf8)) == profile)
        let plain = String(decoding: try sorted.encode(Profile(name: "Web")), as: UTF8.self)
        #expect(!plain.contains("apps"))
    }
}
