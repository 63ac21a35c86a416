import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

/// The first run's starter deck finds the desktop's default file manager and web browser (issue 22) as
/// `xdg-mime query default` does: mimeapps.list in the config and data dirs, earliest first, only installed entries.
@Suite struct StarterAppsTests {
    func entry(_ name: String, _ extra: String = "") -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=true %U\n\(extra)\n"
    }

    func desktop() throws -> (TempDesktop, HostEnvironment) {
        let desk = try TempDesktop()
        let apps = "usr/share/applications/"
        try desk.write(
            apps + "files.desktop", entry("Files", "MimeType=inode/directory;\nCategories=System;FileManager;"))
        try desk.write(apps + "other-files.desktop", entry("Other Files", "Name[ko]=다른 파일"))
        try desk.write(apps + "web.desktop", entry("Web", "MimeType=x-scheme-handler/https;\nCategories=WebBrowser;"))
        try desk.write(apps + "hidden.desktop", entry("Hidden", "NoDisplay=true"))
        // An editor that opens folders too is never guessed as the file manager.
        try desk.write(apps + "a-editor.desktop", entry("Editor", "MimeType=inode/directory;\nCategories=Development;"))
        return (desk, desk.environment(["XDG_CONFIG_DIRS": desk.root + "/etc/xdg", "LANG": "ko_KR.UTF-8"]))
    }

    @Test func theUsersDefaultsWinAndTheirNamesAreLocalized() throws {
        let (desk, environment) = try desktop()
        try desk.write(
            "home/.config/mimeapps.list",
            "[Added Associations]\ninode/directory=files.desktop;\n\n[Default Applications]\n"
                + "inode/directory=not-installed.desktop;hidden.desktop;other-files.desktop;\n"
                + "x-scheme-handler/https=web.desktop\n")
        // A system-wide default comes after the user's.
        try desk.write(
            "usr/share/applications/mimeapps.list", "[Default Applications]\ninode/directory=files.desktop;\n")
        let found = StarterApps.find(environment: environment)
        #expect(found.fileManager == CatalogApp(id: "other-files.desktop", name: "다른 파일", icon: nil))
        #expect(found.webBrowser == CatalogApp(id: "web.desktop", name: "Web", icon: nil))
    }

    @Test func aDesktopSpecificListComesFirstAndOlderDefaultsListIsRead() throws {
        let (desk, environment) = try desktop()
        try desk.write("etc/xdg/sway-mimeapps.list", "[Default Applications]\ninode/directory=other-files.desktop\n")
        try desk.write("etc/xdg/mimeapps.list", "[Default Applications]\ninode/directory=files.desktop\n")
        try desk.write("usr/share/applications/defaults.list", "[Default Applications]\ntext/html=web.desktop\n")
        var variables = environment.variables
        variables["XDG_CURRENT_DESKTOP"] = "sway"
        let found = StarterApps.find(environment: HostEnvironment(variables))
        #expect(found.fileManager?.id == "other-files.desktop")
        #expect(found.webBrowser?.id == "web.desktop")
    }

    @Test func withNoDefaultsAnInstalledAppOfTheCategoryIsTaken() throws {
        let (desk, environment) = try desktop()
        let found = withExtendedLifetime(desk) { StarterApps.find(environment: environment) }
        #expect(found.fileManager?.id == "files.desktop")
        #expect(found.webBrowser?.id == "web.desktop")
    }

    @Test func aDefaultThatIsNotInstalledIsLeftOut() throws {
        let desk = try TempDesktop()
        try desk.write(
            "home/.config/mimeapps.list",
            "[Default Applications]\ninode/directory=gone.desktop\nx-scheme-handler/https=gone-too.desktop\n")
        let found = StarterApps.find(environment: desk.environment(["XDG_CONFIG_DIRS": desk.root + "/etc/xdg"]))
        #expect(found == StarterApps())
    }

    @Test func onlyTheDefaultApplicationsGroupCounts() {
        let text =
            "[Added Associations]\ntext/html=a.desktop\n# text/html=b.desktop\n[Default Applications]\n"
            + "# text/html=c.desktop\n text/html = d.desktop ; e.desktop;\n[Removed Associations]\ntext/html=f.desktop\n"
        #expect(DefaultApps.defaults(for: "text/html", inText: text) == ["d.desktop", "e.desktop"])
        #expect(DefaultApps.defaults(for: "inode/directory", inText: text) == [])
    }
}
