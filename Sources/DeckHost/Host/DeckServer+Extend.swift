import DeckDesktop
import DeckKit
import DeckLog
import Foundation

// Extend (PROTOCOL §6 "Extend"): the monitor a viewing made is taken away with its capture (`ExtendedCapture`),
// on the host's stop, and at start after a host that was killed.
extension DeckServer {
    /// Takes a made monitor away (on the lane) and logs what the desktop could do.
    nonisolated static func remove(_ monitor: Monitor, with monitors: VirtualMonitors, log: Logger) {
        if let note = monitors.remove(monitor) {
            log.warning(note, ["monitor.name": monitor.name])
        } else {
            log.info("the monitor made for Extend is gone", ["monitor.name": monitor.name])
        }
    }

    /// A device that turned asks Extend again: where the desktop can resize a monitor in place, the one made for it
    /// goes to its next stream (`openStream`) instead of away with the stream being stopped, so the windows on it
    /// stay; elsewhere nothing changes (the old monitor goes, a new one is made in its place). Not while a recording
    /// starts or runs: its capture may be of that monitor and must not see it change size under it.
    func keepForTurn(_ monitor: Monitor) {
        guard desktop.virtualMonitors.resize != nil, !recordingHost.machine.isBusy,
            let release = monitorReleases.removeValue(forKey: monitor.name), release.handOver()
        else { return }
        keptMonitor = monitor
    }

    /// At the host's stop, after viewing ended: whatever the record still shows is taken away before the process
    /// goes (the stopped capture's own removal is queued first on the same lane).
    func removeMadeMonitors() async {
        let (monitors, log) = (desktop.virtualMonitors, self.log)
        _ = try? await MonitorLane.run {
            if let note = monitors.cleanUp() { log.info(note) }
        }
    }

    /// Whether Extend is offered here, for `displays` (looked at off the actor).
    nonisolated static func extendOffer(_ monitors: VirtualMonitors) async -> ExtendOffer {
        await Task.detached { ExtendOffer.from(unavailable: monitors.unavailable()) }.value
    }
}
