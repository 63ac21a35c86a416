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
        guard let bus = try? SessionBus(),
            let types = try? bus.property(
                PortalSession.portal, PortalSession.objectPath, PortalSession.screenCast, "AvailableSourceTypes"),
            types.isOfType("u")
        else { return nil }
        return types.uint32
    }

    /// Why a portal desktop without sway cannot add a monitor, told by what its ScreenCast portal offers (`types`:
    /// its `AvailableSourceTypes`, nil when it does not answer). A portal with the virtual source type (KDE Plasma
    /// 6.5 and later) makes a monitor whose size the computer's user picks in the portal's dialog, never the device;
    /// the host does not use it (docs/ARCHITECTURE.md, "Extend on other portal desktops").
    public static func noExtendReason(sourceTypes types: UInt32?) -> String {
        guard let types, types & PortalSession.virtualSource != 0 else {
            return "this Wayland desktop offers no way to add a monitor: no sway to make an output, and its "
                + "ScreenCast portal has no virtual source"
        }
        return "this desktop's ScreenCast portal makes virtual monitors only at a size picked in its own dialog, "
            + "not the device's; the host does not use it"
    }

    /// Why Extend is not offered on this portal desktop, nil when sway answers on its IPC socket (`touchdeck doctor`).
    public static func extendUnavailable() -> String? {
        guard let ipc = SwayIPC.find() else { return noExtendReason(sourceTypes: screenCastSourceTypes()) }
        return ipc.outputs() == nil ? "sway does not answer on its IPC socket" : nil
    }

    /// Extend on this desktop: sway's outputs when sway answers on its IPC socket; elsewhere not offered.
    func virtualMonitors(stateDirectory: URL?, prepare: @escaping @Sendable () -> Void) -> VirtualMonitors {
        guard let ipc = SwayIPC.find() else {
            return .notOffered(Self.noExtendReason(sourceTypes: Self.screenCastSourceTypes()))
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
