import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

@Suite struct AppCatalogTests {
    /// Installs the test desktop: entries that must be listed and ones that must not, and icons in
    /// hicolor, a current theme, pixmaps and at an absolute path.
    func makeDesktop() throws -> TempDesktop {
        let desk = try TempDesktop()
        let system = "usr/share/applications/"
        try desk.write(system + "org.example.Editor.desktop", entry("Editor", "Icon=example-editor\nName[ko]=편집기"))
        try desk.write(system + "vendor/tool.desktop", entry("Tool", "Icon=vendor-tool"))
        try desk.write(system + "hidden.desktop", entry("Hidden App", "NoDisplay=true"))
        try desk.write(system + "deleted.desktop", entry("Deleted", "Hidden=true"))
        try desk.write(system + "gnome-only.desktop", entry("Gnome Only", "OnlyShowIn=GNOME;"))
        try desk.write(system + "not-kde.desktop", entry("Not KDE", "NotShowIn=KDE;"))
        try desk.write(system + "missing.desktop", entry("Missing", "TryExec=no-such-binary-touchdeck"))
        try desk.write(system + "link.desktop", "[Desktop Entry]\nType=Link\nName=Link\nURL=https://example.com\n")
        try desk.write(system + "override.desktop", entry("System Copy", "Icon=themed-only"))
        try desk.write("home/.local/share/applications/override.desktop", entry("User Copy", "Icon=themed-only"))
        try desk.write(system + "pixmap.desktop", entry("Pixmap App", "Icon=old-style.png"))
        try desk.write(system + "absolute.desktop", entry("Absolute", "Icon=\(desk.root)/icons/abs.svg"))
        try installIcons(desk)
        return desk
    }

    func entry(_ name: String, _ extra: String) -> String {
        "[Desktop Entry]\nType=Application\nName=\(name)\nExec=true %U\n\(extra)\n"
    }

    func installIcons(_ desk: TempDesktop) throws {
        let hicolor = "usr/share/icons/hicolor/"
        try desk.write(
            hicolor + "index.theme",
            """
            [Icon Theme]
            Name=Hicolor
            Directories=32x32/apps,64x64/apps,128x128/apps,scalable/apps,64x64@2/apps

            [32x32/apps]
            Size=32
            [64x64/apps]
            Size=64
            [128x128/apps]
            Size=128
            [scalable/apps]
            Size=128
            Type=Scalable
            [64x64@2/apps]
            Size=64
            Scale=2
            """)
        try desk.write(hicolor + "32x32/apps/example-editor.png", png("editor-32"))
        try desk.write(hicolor + "64x64/apps/example-editor.png", png("editor-64"))
        try desk.write(hicolor + "128x128/apps/example-editor.png", png("editor-128"))
        try desk.write(hicolor + "scalable/apps/vendor-tool.svg", tinySVG)
        try desk.write(hicolor + "128x128/apps/vendor-tool.png", png("tool-128"))
        try desk.write(hicolor + "32x32/apps/themed-only.png", png("hicolor-copy"))
        try desk.write(
            "home/.local/share/icons/MyTheme/index.theme",
            "[Icon Theme]\nName=Mine\nInherits=hicolor\nDirectories=48/apps\n[48/apps]\nSize=48\n")
        try desk.write("home/.local/share/icons/MyTheme/48/apps/themed-only.png", png("mytheme-copy"))
        try desk.write("home/.config/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name=MyTheme\n")
        try desk.write("usr/share/pixmaps/old-style.png", png("pixmap"))
        try desk.write("icons/abs.svg", tinySVG)
    }

    /// A PNG whose bytes say which file it is, so the test can tell which one was picked.
    func png(_ marker: String) -> Data { tinyPNG + Data(marker.utf8) }

    func dataURL(_ data: Data, _ type: String) -> String { "data:\(type);base64,\(data.base64EncodedString())" }

    @Test func listsWhatALauncherWouldShow() async throws {
        let desk = try makeDesktop()
        let apps = await AppCatalog.live(environment: desk.environment(["XDG_CURRENT_DESKTOP": "KDE"])).list()
        #expect(apps.map(\.name) == ["Absolute", "Editor", "Pixmap App", "Tool", "User Copy"])
        #expect(apps.map(\.id).contains("vendor-tool.desktop"))
        #expect(apps.map(\.id).contains("org.example.Editor.desktop"))
    }

    @Test func currentDesktopDecidesOnlyShowInAndNotShowIn() async throws {
        let desk = try makeDesktop()
        let gnome = await AppCatalog.live(environment: desk.environment(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"])).list()
        #expect(gnome.map(\.name).contains("Gnome Only"))
        #expect(gnome.map(\.name).contains("Not KDE"))
        let kde = await AppCatalog.live(environment: desk.environment(["XDG_CURRENT_DESKTOP": "KDE"])).list()
        #expect(!kde.map(\.name).contains("Gnome Only"))
        #expect(!kde.map(\.name).contains("Not KDE"))
    }

    @Test func namesFollowTheHostLocale() async throws {
        let desk = try makeDesktop()
        let korean = await AppCatalog.live(environment: desk.environment(["LANG": "ko_KR.UTF-8"])).list()
        #expect(korean.first { $0.id == "org.example.Editor.desktop" }?.name == "편집기")
        let messages = desk.environment(["LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"])
        #expect(await AppCatalog.live(environment: messages).list().contains { $0.name == "편집기" })
    }

    @Test func iconsComeFromTheThemeAtTheRightSize() async throws {
        let desk = try makeDesktop()
        let apps = await AppCatalog.live(environment: desk.environment()).list()
        let icon = { (id: String) in apps.first { $0.id == id }?.icon }
        #expect(icon("org.example.Editor.desktop") == dataURL(png("editor-64"), "image/png"))
        #expect(icon("vendor-tool.desktop") == dataURL(Data(tinySVG.utf8), "image/svg+xml"))
        #expect(icon("override.desktop") == dataURL(png("mytheme-copy"), "image/png"))
        #expect(icon("pixmap.desktop") == dataURL(png("pixmap"), "image/png"))
        #expect(icon("absolute.desktop") == dataURL(Data(tinySVG.utf8), "image/svg+xml"))
    }

    @Test func newlyInstalledAppsAppearOnTheNextList() async throws {
        let desk = try makeDesktop()
        let catalog = AppCatalog.live(environment: desk.environment())
        let before = await catalog.list()
        try desk.write("home/.local/share/applications/new.desktop", entry("Brand New", "Icon=example-editor"))
        let after = await catalog.list()
        #expect(after.count == before.count + 1)
        #expect(after.first { $0.id == "new.desktop" }?.icon == dataURL(png("editor-64"), "image/png"))
    }

    @Test func hundredsOfEntriesAllGetTheirIcons() async throws {
        let desk = try makeDesktop()
        for number in 0..<200 {
            try desk.write(
                "usr/share/applications/bulk-\(number).desktop", entry("Bulk \(number)", "Icon=example-editor"))
        }
        let apps = await AppCatalog.live(environment: desk.environment()).list()
        let bulk = apps.filter { $0.id.hasPrefix("bulk-") }
        #expect(bulk.count == 200)
        #expect(bulk.allSatisfy { $0.icon == dataURL(png("editor-64"), "image/png") })
    }
}
