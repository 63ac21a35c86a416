import DeckDesktop
import Foundation

extension PortalDesktop {
    /// The capture of a monitor made for Extend: a screen cast of its own whose restore token is kept apart
    /// (`portal-extend-restore-token`), so the computer's user picks the new output once in the portal's chooser and
    /// the token of the usual viewing keeps its own monitor. A chooser answer of another size than the made monitor
    /// is refused, as for a real monitor. Until the cast's first picture the new monitor is shown from a screencopy
    /// of its output (`StillPicture`): xdg-desktop-portal-wlr sends none until something changes there, and a new
    /// monitor is empty.
    var extendCapture: StartCapture {
        let token = extendToken
        return { monitor, fps, handlers in
            let output = monitor.name
            return try PortalCapture(
                bus: try Self.bus(), kind: .screenCast, token: token, monitor: monitor, fps: fps, handlers: handlers,
                still: { StillPicture(output: output) },
                started: { session in self.sessions.started(session) },
                ended: { session in self.sessions.ended(session) })
        }
    }

    /// The restore token of Extend's captures.
    var extendToken: PortalRestoreToken {
        PortalRestoreToken(directory: token.file.deletingLastPathComponent(), name: "portal-extend-restore-token")
    }

    /// The ScreenCast portal's `AvailableSourceTypes` (monitor 1, window 2, virtual `PortalSession.virtualSource`),
    /// nil when the portal does not answer.
    public static func screenCastSourceTypes() -> UInt32? {
        property(PortalSession.screenCast, "AvailableSourceTypes")
    }

    /// Why a portal desktop without sway cannot add a monitor.
    public static let noExtendReason =
        "this Wayland desktop offers no way to add a monitor: no sway to make an output, and its ScreenCast portal "
        + "has no virtual source (KDE Plasma has one from 6.5)"

    /// How Extend is served on this portal desktop, when it is (`touchdeck doctor`).
    public static var extendOffered: String {
        SwayIPC.find() != nil
            ? "a headless output made through sway's IPC"
            : "a virtual monitor made by the ScreenCast portal (its size picked once per orientation in its dialog)"
    }

    /// Why Extend is not offered on this portal desktop, nil when sway answers on its IPC socket or the ScreenCast
    /// portal makes virtual monitors (`touchdeck doctor`).
    public static func extendUnavailable() -> String? {
        guard let ipc = SwayIPC.find() else { return PortalVirtualMonitors.unavailable() }
        return ipc.outputs() == nil ? "sway does not answer on its IPC socket" : nil
    }

    /// Extend on this desktop: sway's outputs when sway answers on its IPC socket; else the portal's virtual
    /// monitors where its ScreenCast has that source type; elsewhere not offered.
    func virtualMonitors(stateDirectory: URL?, prepare: @escaping @Sendable () -> Void) -> VirtualMonitors {
        guard let ipc = SwayIPC.find() else {
            if let reason = PortalVirtualMonitors.unavailable() { return .notOffered(reason) }
            return PortalVirtualMonitors(desktop: self).virtualMonitors
        }
        guard let stateDirectory else { return .notOffered("the host has no state folder to keep its record in") }
        let capture = extendCapture
        let prepared: StartCapture = { monitor, fps, handlers in
            prepare()
            return try capture(monitor, fps, handlers)
        }
        return SwayMonitors(ipc: ipc, record: VirtualMonitorRecord(folder: stateDirectory), capture: prepared)
            .virtualMonitors
    }
}
