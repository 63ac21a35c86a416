import DeckActions
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// The first run's starter deck (issue 22): a terminal, the file manager, the web browser and the record key; a
/// default app that is missing is left out; an existing config is never changed.
@Suite struct StarterDeckTests {
    let files = CatalogApp(id: "org.gnome.Nautilus.desktop", name: "Files", icon: nil)
    let browser = CatalogApp(id: "firefox.desktop", name: "Firefox", icon: nil)

    @Test func theFourKeysInOrder() {
        let layout = StarterDeck.layout(StarterApps(fileManager: files, webBrowser: browser))
        #expect(layout.pages.count == 2)
        #expect(
            layout.pages[0]
                == [
                    Button(label: "Terminal", kind: .terminal(directory: "")),
                    Button(label: "Files", kind: .app(appId: "org.gnome.Nautilus.desktop")),
                    Button(label: "Firefox", kind: .app(appId: "firefox.desktop")),
                    Button(label: "Record", kind: .record(displayId: nil, fps: 30)),
                ] + Array(repeating: nil, count: 8))
    }

    @Test func aMissingAppIsLeftOutAndTheKeysAfterItMoveUp() {
        let layout = StarterDeck.layout(StarterApps(fileManager: nil, webBrowser: browser))
        #expect(layout.pages[0].prefix(4).map { $0?.kind.name } == ["terminal", "app", "record", nil])
        let bare = StarterDeck.layout(StarterApps())
        #expect(bare.pages[0].prefix(3).map { $0?.label } == ["Terminal", "Record", nil])
    }

    @Test func aFirstRunGetsTheStarterDeckAndSavesIt() async throws {
        var desktop = HostDesktop.fake()
        desktop.starterApps = { StarterApps(fileManager: self.files, webBrowser: self.browser) }
        let harness = try HostHarness(desktop: desktop)
        let layout = await harness.host.config.layout
        #expect(layout == StarterDeck.layout(StarterApps(fileManager: files, webBrowser: browser)))
        let saved = try JSONDecoder().decode(HostConfig.self, from: Data(harness.dir.read("config.json").utf8))
        #expect(saved.profiles.names == ["Default"])
        #expect(saved.layout == layout)
    }

    @Test func anExistingConfigWithAnEmptyDeckIsNeverChanged() async throws {
        let dir = TempDir()
        let empty = String(decoding: try ConfigStore.encoder.encode(HostConfig()), as: UTF8.self)
        try dir.write(empty, to: "config.json")
        var desktop = HostDesktop.fake()
        desktop.starterApps = { StarterApps(fileManager: self.files, webBrowser: self.browser) }
        let host = DeckServer(
            link: RecordingLink(), store: try ConfigStore(directory: dir.url), desktop: desktop,
            notifier: NotificationLog().notifier, log: .silent, port: 1, address: "https://test:1/", hostName: "desk")
        #expect(await host.config.layout == .empty)
        #expect(try dir.read("config.json") == empty)
    }

    @Test func withoutTheSeamAFirstRunStaysEmptyAndWritesNothing() async throws {
        let harness = try HostHarness()
        #expect(await harness.host.config.layout == .empty)
        #expect(!harness.dir.names().contains("config.json"))
    }
}
