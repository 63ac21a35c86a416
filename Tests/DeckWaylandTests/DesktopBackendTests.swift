import DeckDesktop
import Testing

@testable import DeckWayland

/// The back-end rule without a desktop: the environment and the bus probe are passed in.
struct DesktopBackendTests {
    @Test func aGnomeWaylandSessionUsesMutterAndNeverXwayland() {
        let gnome = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]
        #expect(DesktopBackend.choose(environment: gnome, mutterOnBus: { true }) == .mutter)
        guard case .waylandUnsupported(let why) = DesktopBackend.choose(environment: gnome, mutterOnBus: { false })
        else {
            Issue.record("a Wayland session without Mutter must not fall back to Xwayland")
            return
        }
        #expect(why.contains("org.gnome.Mutter.ScreenCast"))
    }

    @Test func x11SessionsAndBareDisplaysUseX11AndNothingIsNone() {
        var asked = 0
        let probe = {
            asked += 1
            return true
        }
        #expect(
            DesktopBackend.choose(environment: ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"], mutterOnBus: probe) == .x11
        )
        #expect(DesktopBackend.choose(environment: ["DISPLAY": ":5"], mutterOnBus: probe) == .x11)
        #expect(DesktopBackend.choose(environment: [:], mutterOnBus: probe) == .none)
        #expect(asked == 0, "the bus is asked only in a Wayland session")
        #expect(DesktopBackend.choose(environment: ["WAYLAND_DISPLAY": "wayland-1"], mutterOnBus: probe) == .mutter)
        // An X11 session type wins over a stray WAYLAND_DISPLAY (a nested compositor's).
        #expect(
            DesktopBackend.choose(
                environment: ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-9"],
                mutterOnBus: probe) == .x11)
    }

    @Test func aWaylandSessionWithoutMutterUsesThePortalWhenItAnswers() {
        let sway = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-1"]
        #expect(DesktopBackend.choose(environment: sway, mutterOnBus: { false }, portalOnBus: { true }) == .portal)
        #expect(DesktopBackend.choose(environment: sway, mutterOnBus: { true }, portalOnBus: { true }) == .mutter)
        var asked = false
        _ = DesktopBackend.choose(
            environment: ["DISPLAY": ":0"], mutterOnBus: { false },
            portalOnBus: {
                asked = true
                return true
            })
        #expect(!asked, "an X11 session never asks for the portal")
    }

    @Test func portalInputTakesWlrootsThenTheRemoteDesktopPortalThenUinput() {
        var asked: [String] = []
        func probe<T>(_ name: String, _ answer: T) -> () -> T {
            {
                asked.append(name)
                return answer
            }
        }
        #expect(
            PortalInputRoute.choose(
                wlroots: probe("wlroots", true), remoteDesktopPortal: probe("portal", UInt32?(2)),
                uinput: probe("uinput", true)) == .wlroots)
        #expect(asked == ["wlroots"], "a later probe was asked after one answered")
        asked = []
        #expect(
            PortalInputRoute.choose(
                wlroots: probe("wlroots", false), remoteDesktopPortal: probe("portal", UInt32?(1)),
                uinput: probe("uinput", true)) == .remoteDesktopPortal(version: 1))
        #expect(asked == ["wlroots", "portal"])
        #expect(
            PortalInputRoute.choose(wlroots: { false }, remoteDesktopPortal: { nil }, uinput: { true }) == .uinput)
        #expect(PortalInputRoute.choose(wlroots: { false }, remoteDesktopPortal: { nil }, uinput: { false }) == .none)
        // Doctor tells a portal that asks every session from one that keeps the approval.
        #expect(PortalInputRoute.remoteDesktopPortal(version: 1).detail.contains("every session"))
        #expect(PortalInputRoute.remoteDesktopPortal(version: 2).detail.contains("approves once"))
    }

    @Test func theOverrideWins() {
        let wayland = ["XDG_SESSION_TYPE": "wayland", "TOUCHDECK_DESKTOP": "x11"]
        #expect(DesktopBackend.choose(environment: wayland, mutterOnBus: { true }) == .x11)
        #expect(DesktopBackend.choose(environment: ["TOUCHDECK_DESKTOP": "mutter"], mutterOnBus: { false }) == .mutter)
    }

    @Test func aMissingWaylandDisplayIsNoDisplayNotNoKeyboard() {
        // Told apart because a seat without a keyboard is asked again and a missing display is not.
        #expect(WaylandKeymap.read(display: "/nonexistent/touchdeck-wayland-0") == .noDisplay)
    }

    @Test func keypadKeysMapToTheirKeysyms() {
        #expect(WaylandInput.keysym(for: .enter) == 0xff0d)
        #expect(WaylandInput.keysym(for: .backspace) == 0xff08)
        #expect(WaylandInput.keysym(for: .init(rawValue: "7")!) == 0x37)
    }
}
