import DeckActions
import DeckKit

/// The deck a first run shows instead of an empty grid (issue 22): a terminal, the desktop's file manager, its web
/// browser and the record key, in that order on the first page. A default app that is not installed is left out (a
/// key for it could not start), and the keys after it move up. Only a host with no `config.json` gets it: an
/// existing config is never changed, even one whose deck is empty.
public enum StarterDeck {
    /// The starter deck for the apps `StarterApps.find` found.
    public static func layout(_ apps: StarterApps) -> DeckLayout {
        var keys = [Button(label: "Terminal", kind: .terminal(directory: ""))]
        for app in [apps.fileManager, apps.webBrowser].compactMap({ $0 }) {
            keys.append(Button(label: String(app.name.prefix(DeckLayout.maxLabel)), kind: .app(appId: app.id)))
        }
        keys.append(Button(label: "Record", kind: .record(displayId: nil, fps: 30)))
        var layout = DeckLayout.empty
        var index = 0
        for key in keys {
            // At most four keys on the 12-slot first page; a key the layout refuses (an app id over the field limit)
            // is left out like an app that is not installed.
            guard (try? layout.set(page: 0, index: index, button: key)) != nil else { continue }
            index += 1
        }
        return layout
    }
}
