import DeckActions
import DeckDesktop
import DeckKit
import Foundation

/// Builds the `apps` message (PROTOCOL §6) off the host's actor: reading every desktop entry and its icon
/// takes from milliseconds to seconds, and the message may be several megabytes of JSON.
///
/// Requests that arrive while a scan runs share it; the next request after it ends scans again, so an app
/// installed a moment ago shows up (the live catalog keeps its icon cache between scans).
actor AppsMessage {
    /// The largest inner message that still fits a 16 MiB WebSocket message once sealed: base64 makes the
    /// box 4/3 of the plaintext, and the envelope adds a few dozen bytes.
    static let sealedLimit = (16 * 1024 * 1024 - 1024) / 4 * 3

    private let catalog: AppCatalog
    private let limit: Int
    private var running: Task<Data, Never>?

    init(catalog: AppCatalog, limit: Int = AppsMessage.sealedLimit) {
        self.catalog = catalog
        self.limit = limit
    }

    /// The encoded inner `apps` message, ready to be sealed for each device.
    func encoded() async -> Data {
        if let running { return await running.value }
        let catalog = self.catalog
        let limit = self.limit
        let scan = Task.detached {
            let apps = await catalog.list()
            return Self.encode(apps.map { .init(id: $0.id, name: $0.name, icon: $0.icon) }, limit: limit)
        }
        running = scan
        let message = await scan.value
        // Another request may have started a newer scan while this one was awaited; leave that one alone.
        if running == scan { running = nil }
        return message
    }
}

extension AppsMessage {
    /// Encodes the catalog; if it would not fit in `limit` bytes, the largest icons are left out (the device
    /// shows the app without one) until it does, so one huge SVG cannot cost the device the whole list.
    static func encode(_ apps: [HostMessage.AppEntry], limit: Int) -> Data {
        var apps = apps
        var encoded = HostMessage.apps(.init(apps: apps)).encode()
        guard encoded.count > limit else { return encoded }
        var excess = encoded.count - limit
        let largest = apps.indices.filter { apps[$0].icon != nil }.sorted {
            apps[$0].icon!.utf8.count > apps[$1].icon!.utf8.count
        }
        for index in largest where excess > 0 {
            excess -= apps[index].icon!.utf8.count
            apps[index].icon = nil
        }
        encoded = HostMessage.apps(.init(apps: apps)).encode()
        return encoded
    }
}
