import DeckWayland
import Foundation

/// Why Extend is not offered on the desktops the host does not make monitors on yet (the picker, `doctor`).
enum ExtendSupport {
    static let x11 = "Extend is not available on X11 yet"
}

extension SessionChecks {
    /// Whether this desktop can add a monitor for a device (Extend), and why not. Never a failure: the rest works.
    func extend() -> Check {
        let backend = DesktopBackend.choose(
            environment: environment, mutterOnBus: MutterDesktop.isAvailable, portalOnBus: PortalDesktop.isAvailable)
        let reason: String? =
            switch backend {
            case .x11: ExtendSupport.x11
            case .mutter: MutterDesktop.extendUnavailable()
            case .portal: PortalDesktop.extendUnavailable()
            case .waylandUnsupported, .none: "no desktop to add a monitor to"
            }
        guard let reason else {
            let how =
                backend == .mutter
                ? "a virtual monitor made by Mutter's ScreenCast (RecordVirtual)"
                : "a headless output made through sway's IPC"
            return Check(name: "extend", ok: true, detail: "offered: \(how)", fix: "")
        }
        return Check(name: "extend", ok: true, detail: "not offered: \(reason)", fix: "")
    }
}
