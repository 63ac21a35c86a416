import DeckDesktop
import Foundation

extension MutterDesktop {
    /// GNOME on Wayland as one `Desktop`: Mutter's ScreenCast and RemoteDesktop, and the lock from GNOME's screen
    /// shield (and logind's LockedHint, which it sets); there is no X screensaver to ask.
    public var desktop: Desktop {
        var desktop = Desktop(
            screen: screen, input: input, keypad: keypad, typing: typing,
            lock: .either([.gnomeScreenSaver(), .logind()]),
            clipboard: clipboard.access)
        desktop.focus = .unavailable(Self.noFocusReason)
        desktop.virtualMonitors = MutterVirtualMonitors(desktop: self).virtualMonitors
        return desktop
    }

    /// Why decks do not follow the focused app on GNOME (DESIGN.md#deck).
    public static let noFocusReason =
        "GNOME Shell tells no app which window has the focus without a Shell extension (its "
        + "org.gnome.Shell.Introspect answers only GNOME's own services)"

    /// Why Extend is not offered on this GNOME, nil when Mutter can make a monitor (`touchdeck doctor`).
    public static func extendUnavailable() -> String? { MutterVirtualMonitors.unavailable() }

    /// How the host reaches GNOME's clipboard, for `touchdeck doctor`.
    public static let clipboardRoute = "Mutter's RemoteDesktop clipboard"
}

extension PortalDesktop {
    /// Another Wayland desktop as one `Desktop`: the screen through the ScreenCast portal (its restore token kept
    /// in `configDirectory`), the pointer and keys by the first `PortalInputRoute` that works here, the lock from
    /// logind.
    /// `stateDirectory` keeps the record of the monitors Extend made (nil: Extend is not offered).
    public static func desktop(configDirectory: URL, stateDirectory: URL? = nil) -> Desktop {
        let route = inputRoute()
        var remoteDesktop: UInt32? = nil
        if case .remoteDesktopPortal(let version) = route { remoteDesktop = version }
        let portal = PortalDesktop(configDirectory: configDirectory, remoteDesktop: remoteDesktop)
        var desktop = Desktop(
            screen: portal.screen, input: noInput, keypad: noKeypad, typing: .unavailable(noInputReason),
            lock: .logind(), clipboard: clipboard(), inputUnavailable: noInputReason)
        // sway says which app has the focus over its IPC; KDE's KWin tells it only to a script loaded into it.
        desktop.focus = .sway()
        desktop.virtualMonitors = portal.virtualMonitors(stateDirectory: stateDirectory, prepare: {})
        switch route {
        case .wlroots:
            let wlr = WlrInput()
            (desktop.input, desktop.keypad, desktop.typing) = (wlr.input, wlr.keypad, wlr.typing)
            let capture = desktop.screen.capture
            desktop.screen.capture = { monitor, fps, handlers in
                wlr.prepare()
                return try capture(monitor, fps, handlers)
            }
            desktop.virtualMonitors = portal.virtualMonitors(stateDirectory: stateDirectory, prepare: wlr.prepare)
        case .remoteDesktopPortal:
            (desktop.input, desktop.keypad, desktop.typing) = (portal.input, portal.keypad, portal.typing)
        case .uinput:
            let uinput = UinputInput()
            (desktop.input, desktop.keypad, desktop.typing) = (uinput.input, uinput.keypad, uinput.typing)
        case .none:
            return desktop
        }
        desktop.inputUnavailable = nil
        return desktop
    }

    /// Why a portal desktop has no clipboard (unless a wlroots compositor offers data control, `clipboard()`): the
    /// Clipboard portal came with xdg-desktop-portal 1.18 (Debian 12 has 1.16), and the host does not use it yet.
    public static let noClipboardReason =
        "this desktop offers no clipboard to the host (its desktop portal has no Clipboard)"

    /// How the pointer and the keys reach this desktop (`PortalInputRoute`, with the live probes).
    public static func inputRoute() -> PortalInputRoute {
        PortalInputRoute.choose(
            wlroots: { WlrInput.isAvailable() }, remoteDesktopPortal: remoteDesktopVersion,
            uinput: { UinputInput.isAvailable() })
    }
}
