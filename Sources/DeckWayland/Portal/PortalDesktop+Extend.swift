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

    /// Why a portal desktop without sway cannot add a monitor.
    public static let noExtendReason =
        "this Wayland desktop offers no way to add a monitor (sway's create_output; KDE is not served yet)"

    /// Why Extend is not offered on this portal desktop, nil when sway answers on its IPC socket (`touchdeck doctor`).
    public static func extendUnavailable() -> String? {
        guard let ipc = SwayIPC.find() else { return noExtendReason }
        return ipc.outputs() == nil ? "sway does not answer on its IPC socket" : nil
    }

    /// Extend on this desktop: sway's outputs when sway answers on its IPC socket; elsewhere not offered.
    func virtualMonitors(stateDirectory: URL?, prepare: @escaping @Sendable () -> Void) -> VirtualMonitors {
        guard let ipc = SwayIPC.find() else { return .notOffered(Self.noExtendReason) }
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
