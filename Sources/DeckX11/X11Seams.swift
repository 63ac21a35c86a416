import DeckDesktop

// The X11 back-end's values of the desktop seams.

extension ScreenSource {
    /// The X server at `display` (nil: `$DISPLAY` of the host process): XRandR monitors, XShm grabs (XGetImage
    /// where shared memory cannot be used). The display is opened on first use and again after it goes away.
    /// Each capture (`X11Capture`) opens a connection of its own, used only on its own thread.
    public static func x11(display: String? = nil) -> ScreenSource {
        let screen = X11Screen(displayName: display)
        return ScreenSource(
            monitors: { try await screen.monitors() }, grab: { try await screen.grab($0) },
            capture: { monitor, fps, handlers in
                try X11Capture(display: display, monitor: monitor, fps: fps, handlers: handlers)
            })
    }
}

extension LockProbe {
    /// The X server at `display` (nil: `$DISPLAY` of the host process) through MIT-SCREEN-SAVER: locked while
    /// its screensaver is on (X lockers such as xscreensaver, xss-lock and light-locker run under it). The
    /// display is opened on first use and again after it goes away; no display → not locked.
    public static func x11(display: String? = nil) -> LockProbe {
        let probe = X11LockProbe(displayName: display)
        return LockProbe(name: "x11 \(display ?? "$DISPLAY")") { await probe.isLocked() }
    }

    /// What the host uses: the X server's screensaver, then the logind session's hint.
    public static func x11Session(display: String? = nil) -> LockProbe {
        .either([.x11(display: display), .logind()])
    }
}

extension KeyInjector {
    /// Types through XTest on `display` (nil: `$DISPLAY` of the host process). The display is opened on
    /// first use and reopened after it goes away; without one every press fails with "no display".
    public static func x11(display: String? = nil) -> KeyInjector { X11Keys(display: display).keys }
}

/// The keypad and the keyboard row typing through one X keyboard: one connection, one set of spare keycodes
/// (a keysym bound for the keypad serves text too), one queue, so keys from both land in the order sent.
public struct X11Keys: Sendable {
    public let keys: KeyInjector
    public let typing: TypingSink

    /// Types through XTest on `display` (nil: `$DISPLAY` of the host process), opened on first use and
    /// reopened after it goes away; without one every call fails with "no display".
    public init(display: String? = nil) {
        let keyboard = XKeyboard(displayName: display)
        keys = KeyInjector { key in await keyboard.type(key) }
        var typing = TypingSink(
            typeText: { text in await keyboard.type(text: text) }, pressKey: { key in await keyboard.press(key) })
        typing.holdKey = { key, down in await keyboard.hold(key, down: down) }
        self.typing = typing
    }
}

extension ClipboardAccess {
    /// CLIPBOARD on `display` (nil: `$DISPLAY` of the host process) through a connection and thread of its
    /// own, started on first use (`X11Clipboard`), and PRIMARY through another.
    public static func x11(display: String? = nil) -> ClipboardAccess {
        var access = X11Clipboard(displayName: display).access
        let primary = X11Clipboard(displayName: display, selection: "PRIMARY").access
        access.primary = PrimarySelection(write: primary.write, follow: primary.follow)
        return access
    }
}

/// The X11 back-end as one `Desktop`.
public enum X11Desktop {
    /// The X server at `display` (nil: `$DISPLAY` of the host process): XRandR monitors and XShm captures,
    /// XTest pointer and keys (the keypad and typing share one keyboard connection), and the lock from the X
    /// screensaver or logind, CLIPBOARD (and PRIMARY) through XFixes, and the focused app from the window manager's
    /// `_NET_ACTIVE_WINDOW`.
    public static func make(display: String? = nil) -> Desktop {
        let keys = X11Keys(display: display)
        var desktop = Desktop(
            screen: .x11(display: display), input: .x11(display: display), keypad: keys.keys, typing: keys.typing,
            lock: .x11Session(display: display), clipboard: .x11(display: display))
        desktop.focus = .x11(display: display)
        return desktop
    }
}
