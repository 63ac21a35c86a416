/// Which desktop the host serves the screen, the pointer and the keys of (SPEC §7), chosen once at start from the
/// session's environment and the services on its bus (STYLE practice 2: a pure rule, the probe passed in).
public enum DesktopBackend: Equatable, Sendable {
    /// An X11 session (or no session type, with `$DISPLAY`): XShm, XDamage, XTest.
    case x11
    /// GNOME on Wayland: Mutter's ScreenCast and RemoteDesktop D-Bus APIs, PipeWire.
    case mutter
    /// A Wayland session whose compositor we cannot reach yet (KDE, wlroots: the portal is still to come); the
    /// text says what is missing.
    case waylandUnsupported(String)
    /// No desktop at all (no `$DISPLAY`, no Wayland session).
    case none

    /// The back-end for `environment`. `TOUCHDECK_DESKTOP=x11|mutter` overrides the rule; otherwise a Wayland
    /// session (`XDG_SESSION_TYPE=wayland`, or no session type and `$WAYLAND_DISPLAY`) uses Mutter when
    /// `mutterOnBus()` says its services answer, and is not served through Xwayland (which sees only X clients);
    /// any other session with `$DISPLAY` is X11.
    public static func choose(environment: [String: String], mutterOnBus: () -> Bool) -> DesktopBackend {
        switch environment["TOUCHDECK_DESKTOP"] {
        case "x11": return .x11
        case "mutter": return .mutter
        default: break
        }
        let sessionType = environment["XDG_SESSION_TYPE", default: ""]
        let hasWayland = !environment["WAYLAND_DISPLAY", default: ""].isEmpty
        let hasX = !environment["DISPLAY", default: ""].isEmpty
        if sessionType == "wayland" || (sessionType.isEmpty && hasWayland) {
            if mutterOnBus() { return .mutter }
            return .waylandUnsupported(
                "a Wayland session without GNOME's Mutter (org.gnome.Mutter.ScreenCast/RemoteDesktop are not on the "
                    + "session bus); KDE and wlroots desktops through the ScreenCast portal are not supported yet")
        }
        return hasX ? .x11 : .none
    }

    /// What `touchdeck doctor` and the log call it.
    public var name: String {
        switch self {
        case .x11: "X11"
        case .mutter: "GNOME (Mutter on Wayland)"
        case .waylandUnsupported: "Wayland (unsupported compositor)"
        case .none: "none"
        }
    }
}
