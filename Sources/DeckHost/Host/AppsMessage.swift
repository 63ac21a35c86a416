import DeckActions
import DeckKit
import Foundation

/// Builds the `apps` message (PROTOCOL §6) off the host's actor: reading every desktop entry and its icon
/// takes from milliseconds to seconds, and the message may be several megabytes of JSON.
///
/// Requests that arrive while a scan runs share it; the next request after it ends scans again, so an app
/// installed a moment ago shows up (the live catalog keeps its icon cache between scans).
actor AppsMessage {
    private let catalog: AppCatalog
    private var running: Task<Data, Never>?

    init(catalog: AppCatalog) {
        self.catalog = catalog
    }

    /// The encoded inner `apps` message, ready to be sealed for each device.
    func encoded() async -> Data {
        if let running { return await running.value }
        let catalog = self.catalog
        let scan = Task.detached {
            let apps = await catalog.list()
            return HostMessage.apps(.init(apps: apps.map { .init(id: $0.id, name: $0.name, icon: $0.icon) })).encode()
        }
        running = scan
        let message = await scan.value
        // Another request may have started a newer scan while this one was awaited; leave that one alone.
        if running == scan { running = nil }
        return message
    }
}
