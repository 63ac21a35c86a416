import CX11
import CXDamage
import CXrandr
import DeckDesktop

/// The extensions a capture listens to and how their events are told apart: extension event codes are
/// offsets from bases the server picks at run time.
struct XCaptureEvents {
    enum Kind {
        /// Something was drawn on the root window (DAMAGE).
        case damage
        /// The cursor's picture changed (XFIXES).
        case cursor
        /// The screen's size or monitors changed (RANDR, or the root window was resized).
        case layout
    }

    private let damageBase: Int32
    private let fixesBase: Int32
    /// nil when the server has no RANDR (then only the root window's own resizes tell of a change).
    private let randrBase: Int32?

    /// Checks for DAMAGE 1.1 and XFIXES 2 and announces the versions we speak (a client that does not is
    /// treated as knowing version 0 of each, and region requests fail); throws `captureFailed` without them.
    init(_ display: OpaquePointer) throws(ScreenSourceError) {
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 1
        var minor: Int32 = 1
        guard XDamageQueryExtension(display, &event, &error) != 0, XDamageQueryVersion(display, &major, &minor) != 0
        else { throw .captureFailed("the X server has no DAMAGE extension") }
        damageBase = event
        major = 5
        minor = 0
        guard XFixesQueryExtension(display, &event, &error) != 0, XFixesQueryVersion(display, &major, &minor) != 0,
            major >= 2
        else { throw .captureFailed("the X server has no XFIXES 2 extension") }
        fixesBase = event
        randrBase = XRRQueryExtension(display, &event, &error) != 0 ? event : nil
    }

    /// What `event` tells a capture, nil for events it does not care about. RANDR's screen change is also
    /// passed to Xlib, which keeps its own copy of the screen size.
    func kind(of event: inout XEvent) -> Kind? {
        switch event.type {
        case damageBase + XDamageNotify: return .damage
        case fixesBase + XFixesCursorNotify: return .cursor
        case ConfigureNotify: return .layout
        case (randrBase ?? -1) + RRScreenChangeNotify:
            XRRUpdateConfiguration(&event)
            return .layout
        case (randrBase ?? -1) + RRNotify: return .layout
        default: return nil
        }
    }
}
