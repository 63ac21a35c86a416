/// What one desktop back-end gives the host: the screen, the pointer and wheel, the keypad, typing, the lock and
/// the clipboard, and why input reaches nothing when that is so. Each back-end (X11, Mutter, the ScreenCast portal with its
/// input route) returns one; the host picks one and sees only the seams. Sound and the volume gauge are not
/// here: libpulse serves them on every back-end alike.
public struct Desktop: Sendable {
    public var screen: ScreenSource
    public var input: InputSink
    public var keypad: KeyInjector
    public var typing: TypingSink
    public var lock: LockProbe
    /// The computer's clipboard (DESIGN.md#clipboard); `.unavailable(reason)` where it cannot be reached.
    public var clipboard: ClipboardAccess
    /// Why a viewer's pointer and keys reach nothing on this desktop (a Wayland desktop with no input route);
    /// nil when they do.
    public var inputUnavailable: String?
    /// Which app has the focus, for decks that follow it; `.unavailable(reason)` where the desktop does not say.
    public var focus: FocusWatch = .unavailable("this desktop does not say which app has the focus")
    /// Extend: a monitor made for a device (PROTOCOL §6 "Extend"); `.notOffered(reason)` where the desktop cannot.
    public var virtualMonitors: VirtualMonitors = .notOffered("this desktop cannot add a monitor")

    public init(
        screen: ScreenSource, input: InputSink, keypad: KeyInjector, typing: TypingSink, lock: LockProbe,
        clipboard: ClipboardAccess, inputUnavailable: String? = nil
    ) {
        self.screen = screen
        self.input = input
        self.keypad = keypad
        self.typing = typing
        self.lock = lock
        self.clipboard = clipboard
        self.inputUnavailable = inputUnavailable
    }

    /// No desktop the host can reach (no display, an unsupported Wayland compositor): the screen and the pointer
    /// throw `noDisplay`, keys and typing fail with "no display"; `lock` still says whether the session is
    /// locked.
    public static func unavailable(lock: LockProbe) -> Desktop {
        Desktop(
            screen: .noDisplay,
            input: .failing(.noDisplay), keypad: KeyInjector { _ in .failed("no display") },
            typing: .unavailable("no display"), lock: lock, clipboard: .unavailable("no display"))
    }
}
