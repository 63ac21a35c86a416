import DeckActions
import DeckWayland
import DeckX11
import Foundation

extension SessionChecks {
    /// Whether this desktop can add a monitor for a device (Extend), and why not. Never a failure: the rest works.
    func extend() -> Check {
        let backend = DesktopBackend.choose(
            environment: environment, mutterOnBus: MutterDesktop.isAvailable, portalOnBus: PortalDesktop.isAvailable)
        let reason: String? =
            switch backend {
            case .x11:
                X11Desktop.extendUnavailable(
                    stateDirectory: URL(fileURLWithPath: HostEnvironment(environment).stateHome + "/touchdeck"))
            case .mutter: MutterDesktop.extendUnavailable()
            case .portal: PortalDesktop.extendUnavailable()
            case .waylandUnsupported, .none: "no desktop to add a monitor to"
            }
        guard let reason else {
            let how =
                switch backend {
                case .mutter: "a virtual monitor made by Mutter's ScreenCast (RecordVirtual)"
                case .x11: X11Desktop.extendOffered
                default: PortalDesktop.extendOffered
                }
            return Check(name: "extend", ok: true, detail: "offered: \(how)", fix: "")
        }
        return Check(name: "extend", ok: true, detail: "not offered: \(reason)", fix: "")
    }
}
