import DeckDesktop
import DeckWayland
import Foundation

extension SessionChecks {
    /// The desktop back-end in use and, for GNOME on Wayland, what it needs (instead of the X11 checks).
    func desktopChecks() -> [Check] {
        let backend = DesktopBackend.choose(
            environment: environment, mutterOnBus: MutterDesktop.isAvailable, portalOnBus: PortalDesktop.isAvailable)
        switch backend {
        case .x11:
            return [Check(name: "desktop", ok: true, detail: backend.name, fix: "")] + displayChecks() + [
                clipboard(nil), focusedApp(nil, through: "_NET_ACTIVE_WINDOW and WM_CLASS property events"),
            ]
        case .mutter:
            return [
                Check(name: "desktop", ok: true, detail: backend.name, fix: ""), pipeWire(), keymap(),
                clipboard(nil, through: MutterDesktop.clipboardRoute), focusedApp(MutterDesktop.noFocusReason),
            ]
        case .portal:
            return [
                Check(name: "desktop", ok: true, detail: backend.name, fix: ""), pipeWire(),
                Check(
                    name: "screen consent", ok: true,
                    detail:
                        "the computer's user approves screen sharing on the computer (once, where the portal keeps it)",
                    fix: ""),
                inputCheck(PortalDesktop.inputRoute()),
                clipboard(PortalDesktop.clipboardUnavailable(), through: "wlroots' data control"),
                focusedApp(FocusWatch.sway(environment: environment).unavailable, through: "sway's IPC window events"),
            ]
        case .waylandUnsupported(let missing):
            return [
                Check(
                    name: "desktop", ok: false, detail: missing,
                    fix: "use a GNOME session, or log in to an X11 session for screen viewing and the keypad")
            ]
        case .none:
            return [
                Check(
                    name: "desktop", ok: false, detail: "no X11 display and no Wayland session",
                    fix: "run touchdeck inside your desktop session, or use `make run` for a private Xvfb")
            ]
        }
    }

    /// Whether a viewer allowed to can trade the clipboard here (DESIGN.md#clipboard); a desktop without one is
    /// said, not failed: there is nothing for the user to fix. `through`: how the host reaches it when it can.
    private func clipboard(_ unavailable: String?, through: String = "CLIPBOARD through XFixes") -> Check {
        Check(
            name: "clipboard", ok: true,
            detail: unavailable.map { "not offered: \($0)" }
                ?? "\(through), for a viewer allowed to (touchdeck devices allow-clipboard NAME on)",
            fix: "")
    }

    /// Whether decks can follow the focused app here (DESIGN.md#deck); said, not failed, where the desktop tells no
    /// app: there is nothing for the user to fix short of another desktop.
    private func focusedApp(_ unavailable: String?, through: String = "") -> Check {
        Check(
            name: "focused app", ok: true,
            detail: unavailable.map { "not followed: \($0)" }
                ?? "\(through): profiles that name apps show while one has the focus",
            fix: "")
    }

    /// How the pointer and the keys reach a portal desktop.
    private func inputCheck(_ route: PortalInputRoute) -> Check {
        Check(
            name: "pointer and keys", ok: route != .none, detail: route.detail,
            fix: "make /dev/uinput writable for your user (README: the udev rule), or use KDE, a wlroots compositor "
                + "(sway), GNOME or an X11 session")
    }

    /// PipeWire carries Mutter's screen-cast frames: its socket must be there.
    private func pipeWire() -> Check {
        let socket =
            environment["PIPEWIRE_REMOTE"].map {
                $0.hasPrefix("/") ? $0 : "\(environment["XDG_RUNTIME_DIR"] ?? "")/\($0)"
            }
            ?? "\(environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())")/pipewire-0"
        let present = FileManager.default.fileExists(atPath: socket)
        return Check(
            name: "PipeWire", ok: present, detail: present ? socket : "no socket at \(socket)",
            fix: "start PipeWire (`systemctl --user start pipewire wireplumber`); GNOME's screen sharing needs it")
    }

    /// Which keysyms Mutter can type is read from the compositor's keymap over `$WAYLAND_DISPLAY`.
    private func keymap() -> Check {
        let name = environment["WAYLAND_DISPLAY", default: ""]
        return Check(
            name: "keymap", ok: !name.isEmpty, detail: name.isEmpty ? "WAYLAND_DISPLAY is not set" : "from \(name)",
            fix: "run touchdeck inside the GNOME session: without the keymap a key the layout lacks is not reported")
    }
}
