import DeckKit
import DeckTransport
import Foundation

// Screen viewing (PROTOCOL §6 "Screen", DESIGN.md#viewing). For now: the monitor list with thumbnails.
extension DeckServer {
    /// `listDisplays` → `displays`. A device whose "screen allowed" is off gets `notAllowed` and an empty list
    /// without the desktop being touched. Otherwise the monitors are listed and grabbed off the actor; the
    /// answer is checked against the device's setting again when it is ready, so `allow-screen NAME off`
    /// given meanwhile still keeps the pictures from it. The stops carried out so far (`streamsStopped`) and the
    /// removals they queued on `MonitorLane` are awaited first, so a monitor Extend made for a stopped viewing is
    /// gone from the list, not caught while it is being taken away.
    func listDisplays(for id: ConnectionID) {
        guard mayView(for: id) else { return sendSealed(.displays(DisplaysMessage.notAllowed), to: id) }
        let (source, monitors) = (desktop.screen, desktop.virtualMonitors)
        let log = self.log
        let stopped = streamsStopped
        Task {
            await stopped?.value
            _ = try? await MonitorLane.run {}
            var message = await Task.detached { await DisplaysMessage.build(from: source, log: log) }.value
            message.extend = await Self.extendOffer(monitors)
            self.displaysReady(message, for: id)
        }
    }

    private func displaysReady(_ message: HostMessage.Displays, for id: ConnectionID) {
        guard mayView(for: id) else { return sendSealed(.displays(DisplaysMessage.notAllowed), to: id) }
        sendSealed(.displays(message), to: id)
    }

    /// Whether the device on connection `id` may view the screen now. Read from the device book on every
    /// request, so `touchdeck devices allow-screen` applies to a connected device from its next request on.
    func screenAllowed(for id: ConnectionID) -> Bool {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return false }
        return devices.record(id: deviceId)?.screenAllowed == true
    }

    /// Whether `id` may list the monitors and view now: the device's permission, or the "Allow once" its user
    /// answered for this connection (DeckServer+Asking). Recording and fetching recordings need the permission.
    func mayView(for id: ConnectionID) -> Bool {
        screenAllowed(for: id) || viewingPasses[id] != nil
    }
}
