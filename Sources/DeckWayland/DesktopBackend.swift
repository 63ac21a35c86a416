/// Which desktop the host serves the screen, the pointer and the keys of (DESIGN.md#viewing), chosen once at start from
/// the session's environment and the services on its bus (DESIGN.md#state-machines: a pure rule, the probe passed in).
public enum DesktopBackend: Equatable, Sendable {
    /// An X11 session (or no session type, with `$DISPLAY`): XShm, XDamage, XTest.
    case x11
    /// GNOME on Wayland: Mutter's ScreenCast and RemoteDesktop D-Bus APIs, PipeWire.
    case mutter
    /// Another Wayland desktop with the ScreenCast portal (v4): the screen through the portal, the pointer and the
    /// keys by the first `PortalInputRoute` that works there.
    case portal
    /// A Wayland session whose screen we cannot reach (neither Mutter nor the ScreenCast portal); the text says
    /// what is missing.
    case waylandUnsupported(String)
    /// No desktop at all (no `$DISPLAY`, no Wayland session).
    case none

    /// The back-end for `environment`. `TOUCHDECK_DESKTOP=x11|mutter|portal` overrides the rule; otherwise a
    /// Wayland session (`XDG_SESSION_TYPE=wayland`, or no session type and `$WAYLAND_DISPLAY`) uses Mutter when
    /// `mutterOnBus()` says its services answer, else the ScreenCast portal when `portalOnBus()` says it does, and
    /// is never served through Xwayland (which sees only X clients); any other session with `$DISPLAY` is X11.
    public static func choose(
        environment: [String: String], mutterOnBus: () -> Bool, portalOnBus: () -> Bool = { false }
    ) -> DesktopBackend {
        switch environment["TOUCHDECK_DESKTOP"] {
        case "x11": return .x11
        case "mutter": return .mutter
        case "portal": return .portal
        default: break
        }
        let sessionType = environment["XDG_SESSION_TYPE", default: ""]
        let hasWayland = !environment["WAYLAND_DISPLAY", default: ""].isEmpty
        let hasX = !environment["DISPLAY", default: ""].isEmpty
        if sessionType == "wayland" || (sessionType.isEmpty && hasWayland) {
            if mutterOnBus() { return .mutter }
            if portalOnBus() { return .portal }
            return .waylandUnsupported(
                "a Wayland session with neither GNOME's Mutter (org.gnome.Mutter.ScreenCast/RemoteDesktop) nor the "
                    + "ScreenCast portal (org.freedesktop.portal.ScreenCast, version 4) on the session bus")
        }
        return hasX ? .x11 : .none
    }

    /// What `touchdeck doctor` and the log call it.
    public var name: String {
        switch self {
        case .x11: "X11"
        case .mutter: "GNOME (Mutter on Wayland)"
        case .portal: "Wayland (desktop portal)"
        case .waylandUnsupported: "Wayland (unsupported compositor)"
        case .none: "none"
        }
    }
}

/// How the pointer and the keys reach a portal desktop (DESIGN.md#viewing), the first that works: wlroots' virtual
/// pointer and keyboard (sway, Hyprland, river…), the RemoteDesktop portal (KDE; the screen then comes through the same
/// session, one approval for both), a virtual evdev device on `/dev/uinput` when it is writable, else none.
public enum PortalInputRoute: Equatable, Sendable {
    case wlroots
    /// The RemoteDesktop portal of this version.
    case remoteDesktopPortal(version: UInt32)
    case uinput
    case none

    /// The route, from probes asked in order (a later probe is not asked once one answers).
    public static func choose(
        wlroots: () -> Bool, remoteDesktopPortal: () -> UInt32?, uinput: () -> Bool
    ) -> PortalInputRoute {
        if wlroots() { return .wlroots }
        if let version = remoteDesktopPortal() { return .remoteDesktopPortal(version: version) }
        return uinput() ? .uinput : .none
    }

    /// What `touchdeck doctor` says of it.
    public var detail: String {
        switch self {
        case .wlroots: "wlroots' virtual pointer and virtual keyboard"
        case .remoteDesktopPortal(let version) where version >= 2:
            "the RemoteDesktop portal (the computer's user approves once; the approval is kept)"
        case .remoteDesktopPortal:
            "the RemoteDesktop portal (the computer's user approves every session: portal version 1)"
        case .uinput: "a virtual evdev pointer and keyboard on /dev/uinput"
        case .none: "none on this desktop"
        }
    }
}
