import CX11
import DeckWayland
import DeckX11
import Foundation

/// The checks that depend on the session a process runs in: its desktop (X11, GNOME, a portal desktop) and its
/// sound server, read from its environment. `touchdeck doctor` asks the running daemon for its own
/// (`ControlRequest.session`): a second terminal, or a host started by `make run` on its private Xvfb and
/// PulseAudio, sees another session than the daemon uses.
public struct SessionChecks: Sendable {
    public typealias Check = Doctor.Check

    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The desktop and the sound server, in this order.
    public func run() -> [Check] {
        desktopChecks() + [extend(), soundServer(), tray()]
    }

    /// Whether a panel shows the tray menu. Not a failure without one: everything works from the CLI and the
    /// notifications; the line says what is missing.
    func tray() -> Check {
        switch StatusNotifier.hostPresent() {
        case true?:
            Check(name: "tray", ok: true, detail: "a tray host (StatusNotifierWatcher) shows TouchDeck's menu", fix: "")
        case false?:
            Check(
                name: "tray", ok: true,
                detail: "no tray host (StatusNotifierWatcher) on the session bus, so no tray menu; the CLI and "
                    + "notifications do it all (on GNOME, the AppIndicator extension shows trays)", fix: "")
        case nil:
            Check(
                name: "tray", ok: true, detail: "no session bus, so no tray menu and no questions on the desktop",
                fix: "")
        }
    }

    func displayChecks() -> [Check] {
        let fixDisplay =
            "run touchdeck inside your desktop session (DISPLAY must be set), or use `make run` for a private Xvfb"
        guard let name = environment["DISPLAY"], !name.isEmpty else {
            let missing = Check(name: "display", ok: false, detail: "DISPLAY is not set", fix: fixDisplay)
            return [missing, skipped("XTest"), skipped("XShm")]
        }
        guard let display = XDisplay(name: name) else {
            let failed = Check(name: "display", ok: false, detail: "cannot open \(name)", fix: fixDisplay)
            return [failed, skipped("XTest"), skipped("XShm")]
        }
        return [
            Check(name: "display", ok: true, detail: "\(name) is open", fix: ""),
            extensionCheck(
                display, "XTEST", label: "XTest", fix: "enable the XTEST extension (Xvfb and Xorg have it by default)"),
            extensionCheck(
                display, "MIT-SHM", label: "XShm",
                fix: "enable MIT-SHM; screen capture falls back to slow copies without it"),
        ]
    }

    private func extensionCheck(_ display: XDisplay, _ name: String, label: String, fix: String) -> Check {
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        let present = XQueryExtension(display.handle, name, &opcode, &event, &error) != 0
        return Check(name: label, ok: present, detail: present ? "present" : "\(name) is missing", fix: fix)
    }

    private func skipped(_ name: String) -> Check {
        Check(name: name, ok: false, detail: "not checked: no display", fix: "fix the display first")
    }

    /// `pactl info` under this environment (`PULSE_SERVER`, `XDG_RUNTIME_DIR`), as the host's libpulse sees it.
    private func soundServer() -> Check {
        let (status, output) = Doctor.run("pactl", ["info"], environment: environment)
        let server = output.split(separator: "\n").first { $0.hasPrefix("Server Name:") }.map(String.init) ?? ""
        return Check(
            name: "sound server", ok: status == 0, detail: status == 0 ? server : "pactl cannot reach a server",
            fix:
                "start PulseAudio or PipeWire's pulse server (`systemctl --user start pipewire-pulse`); install pulseaudio-utils for pactl"
        )
    }
}
