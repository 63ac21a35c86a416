import CX11
import DeckDesktop
import Foundation
import Glibc

extension FocusWatch {
    /// The focused app on the X server at `display` (nil: `$DISPLAY` of the host process), from
    /// `_NET_ACTIVE_WINDOW` and the active window's `WM_CLASS` (`X11FocusWatch`).
    public static func x11(display: String? = nil) -> FocusWatch {
        FocusWatch { X11FocusWatch.follow(displayName: display) }
    }
}

/// Follows which app has the focus on X11 (DESIGN.md#deck): the window manager names the active window in the root
/// window's `_NET_ACTIVE_WINDOW` (EWMH), and the app is that window's `WM_CLASS` (instance and class, ICCCM §4.1.2.5).
/// Both are watched by PropertyNotify events, never polled: `PropertyChangeMask` on the root window and on the
/// active window (an app may set its class after it maps). Each follow has a connection and a thread of its own,
/// which sleeps in poll(2) on the X socket and a pipe that ends it; a display that goes away is opened again a
/// second later, and until then the focus is unknown (empty).
enum X11FocusWatch {
    static func follow(displayName: String?) -> AsyncStream<[String]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .bufferingNewest(4))
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            continuation.finish()
            return stream
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (stopRead, stopWrite) = (fds[0], fds[1])
        continuation.onTermination = { _ in
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
        }
        let thread = Thread {
            FocusThread(displayName: displayName, stop: stopRead) { continuation.yield($0) }.run()
            close(stopRead)
            close(stopWrite)
        }
        thread.name = "touchdeck.focus"
        thread.start()
        return stream
    }
}

/// The watch's thread: its connection, the window it watches and the names it reported last. Thread-confined.
private final class FocusThread {
    private let displayName: String?
    private let stop: Int32
    private let report: ([String]) -> Void
    private var connection: FocusConnection?
    private var reported: [String]?

    init(displayName: String?, stop: Int32, report: @escaping ([String]) -> Void) {
        self.displayName = displayName
        self.stop = stop
        self.report = report
    }

    func run() {
        while true {
            if connection == nil || connection?.isBroken == true {
                connection = XDisplay(name: displayName).map(FocusConnection.init)
                changed()
            }
            if let connection {
                connection.drain { self.changed() }
                if connection.isBroken {
                    self.connection = nil
                    changed()
                }
            }
            var fds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            if let connection { fds.append(pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)) }
            // Without a display, try again in a second.
            _ = poll(&fds, nfds_t(fds.count), connection == nil ? 1000 : -1)
            if fds[0].revents != 0 { return }
        }
    }

    /// Reads the active window and its class again; reports the names when they changed.
    private func changed() {
        let names = connection?.focusedApp() ?? []
        guard names != reported else { return }
        reported = names
        report(names)
    }
}

/// The watch's X connection: the root window's and the active window's property changes. Used on its thread only.
private final class FocusConnection: XDisplayUser {
    let connection: XDisplay
    private let root: Window
    private let activeWindow: Atom
    private let wmClass: Atom = 67  // XA_WM_CLASS
    private var watched: Window = 0

    init(_ connection: XDisplay) {
        self.connection = connection
        let display = connection.handle
        XErrorTrap.install()
        root = XDefaultRootWindow(display)
        activeWindow = XInternAtom(display, "_NET_ACTIVE_WINDOW", 0)
        XSelectInput(display, root, PropertyChangeMask)
        XFlush(display)
    }

    var socket: Int32 { XConnectionNumber(display) }

    /// Handles every queued event; `changed` runs once when the active window or its class changed.
    func drain(_ changed: () -> Void) {
        XFlush(display)
        var event = XEvent()
        var moved = false
        while !isBroken, XPending(display) > 0 {
            XNextEvent(display, &event)
            guard event.type == PropertyNotify else { continue }
            let notice = event.xproperty
            if notice.window == root && notice.atom == activeWindow { moved = true }
            if notice.window == watched && notice.atom == wmClass { moved = true }
        }
        if moved { changed() }
    }

    /// The active window's WM_CLASS instance and class (empty: no active window, or it has none), watching that
    /// window's properties from now on.
    func focusedApp() -> [String] {
        guard !isBroken else { return [] }
        let active = activeClient()
        if active != watched {
            // A window gone meanwhile is a BadWindow noted by the trap, not a crash. The one left (often closed, which
            // is why the focus moved) is let go first, so its error does not count against the new one.
            if watched != 0 { XSelectInput(display, watched, NoEventMask) }
            XSync(display, 0)
            XErrorTrap.clear(display)
            if active != 0 { XSelectInput(display, active, PropertyChangeMask) }
            XSync(display, 0)
            watched = XErrorTrap.last(display) == 0 ? active : 0
        }
        guard watched != 0 else { return [] }
        var hint = XClassHint()
        guard XGetClassHint(display, watched, &hint) != 0 else { return [] }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let name = hint.res_class { XFree(name) }
        }
        return [hint.res_name, hint.res_class].compactMap { $0.map { String(cString: $0) } }.filter { !$0.isEmpty }
    }

    /// The window `_NET_ACTIVE_WINDOW` names on the root window; 0 when none.
    private func activeClient() -> Window {
        var type: Atom = 0
        var format: Int32 = 0
        var items: UInt = 0
        var after: UInt = 0
        var value: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, root, activeWindow, 0, 1, 0, Atom(AnyPropertyType), &type, &format, &items, &after, &value)
        guard status == Success, let value else { return 0 }
        defer { XFree(value) }
        guard format == 32, items >= 1 else { return 0 }
        // Format-32 items come as C longs, whatever the type.
        return Window(UnsafeRawPointer(value).assumingMemoryBound(to: UInt.self).pointee)
    }
}
