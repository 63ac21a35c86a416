import CX11
import CXDamage
import DeckDesktop
import DeckKit
import Foundation

/// One selection's own X connection (CLIPBOARD, or PRIMARY when a device asks for it): an unmapped window that
/// owns the selection when the host set it and receives what other apps hand over, the atoms the selection protocol (ICCCM §2) names, XFixes
/// selection events, and the property calls everything else is made of. Used only on `X11Clipboard`'s thread.
final class XClipboardConnection: XDisplayUser {
    let connection: XDisplay
    let window: Window
    let root: Window
    let atoms: Atoms
    /// XFIXES' event base: its selection events are `fixesBase + XFixesSelectionNotify`.
    let fixesBase: Int32
    /// The largest property one request writes; more goes INCR (ICCCM §2.7.2).
    let chunkBytes: Int

    struct Atoms {
        /// The selection this connection serves and follows: CLIPBOARD or PRIMARY.
        let selection, targets, incr, utf8, textPlain, png, string, atom, multiple, timestamp, inbox: Atom
        let netActiveWindow: Atom

        init(_ display: OpaquePointer, selection name: String) {
            func intern(_ name: String) -> Atom { XInternAtom(display, name, 0) }
            selection = intern(name)
            targets = intern("TARGETS")
            incr = intern("INCR")
            utf8 = intern("UTF8_STRING")
            textPlain = intern("text/plain;charset=utf-8")
            png = intern("image/png")
            string = 31  // XA_STRING
            atom = 4  // XA_ATOM
            multiple = intern("MULTIPLE")
            timestamp = intern("TIMESTAMP")
            inbox = intern("TOUCHDECK_\(name)")
            netActiveWindow = intern("_NET_ACTIVE_WINDOW")
        }

        /// The targets content of `kind` is served as, TARGETS first.
        func offered(_ kind: ClipboardKind) -> [Atom] {
            kind == .text ? [targets, utf8, textPlain] : [targets, png]
        }
    }

    /// Opens the display's window for `selection` (an atom's name); nil without XFIXES 2 (no selection events to
    /// follow).
    init?(_ connection: XDisplay, selection: String) {
        let display = connection.handle
        XErrorTrap.install()
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 5
        var minor: Int32 = 0
        guard XFixesQueryExtension(display, &event, &error) != 0, XFixesQueryVersion(display, &major, &minor) != 0,
            major >= 2
        else { return nil }
        self.connection = connection
        fixesBase = event
        root = XDefaultRootWindow(display)
        window = XCreateSimpleWindow(display, root, -10, -10, 1, 1, 0, 0, 0)
        XSelectInput(display, window, Self.propertyChangeMask)
        atoms = Atoms(display, selection: selection)
        // XMaxRequestSize is in 4-byte units and covers the request's header too.
        chunkBytes = min(256 * 1024, Int(XMaxRequestSize(display)) * 4 - 1024)
        XFlush(display)
    }

    deinit { if !isBroken { XDestroyWindow(display, window) } }

    static let propertyChangeMask = 1 << 22
    static let propertyNewValue: Int32 = 0
    static let propertyDelete: Int32 = 1

    /// The X connection's socket, for poll(2).
    var socket: Int32 { XConnectionNumber(display) }

    /// Starts (`on`) or ends XFixes' reports of the selection's new owners.
    func followOwners(_ on: Bool) {
        XFixesSelectSelectionInput(display, root, atoms.selection, on ? UInt(XFixesSetSelectionOwnerNotifyMask) : 0)
        XFlush(display)
    }

    /// Takes the selection; whether this window holds it now.
    func own() -> Bool {
        XSetSelectionOwner(display, atoms.selection, window, UInt(CurrentTime))
        return XGetSelectionOwner(display, atoms.selection) == window
    }

    /// Asks the selection's owner for it as `target`, into this window's inbox property.
    func convert(to target: Atom, time: Time) {
        XConvertSelection(display, atoms.selection, target, atoms.inbox, window, time)
        XFlush(display)
    }

    /// A property's type, format and size in bytes, read without its value.
    func peek(_ property: Atom, of window: Window) -> (type: Atom, format: Int32, bytes: Int)? {
        var type: Atom = 0
        var format: Int32 = 0
        var items: UInt = 0
        var after: UInt = 0
        var value: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(display, window, property, 0, 0, 0, 0, &type, &format, &items, &after, &value)
                == Success
        else { return nil }
        if let value { XFree(value) }
        return (type, format, Int(after))
    }

    /// A property's whole value as bytes (format 8), or as its 32-bit items (format 32, which Xlib hands as C
    /// longs); deleted after reading when `delete`.
    func read(_ property: Atom, of window: Window, delete: Bool) -> (type: Atom, bytes: Data, items: [UInt])? {
        var type: Atom = 0
        var format: Int32 = 0
        var items: UInt = 0
        var after: UInt = 0
        var value: UnsafeMutablePointer<UInt8>?
        // The length is in 32-bit units; ask for everything a property can hold at once.
        let status = XGetWindowProperty(
            display, window, property, 0, Int.max / 8, delete ? 1 : 0, 0, &type, &format, &items, &after, &value)
        guard status == Success else { return nil }
        defer { if let value { XFree(value) } }
        guard let value, items > 0 else { return (type, Data(), []) }
        switch format {
        case 32:
            let longs = UnsafeRawPointer(value).assumingMemoryBound(to: UInt.self)
            return (type, Data(), Array(UnsafeBufferPointer(start: longs, count: Int(items))))
        case 16: return (type, Data(bytes: value, count: Int(items) * 2), [])
        default: return (type, Data(bytes: value, count: Int(items)), [])
        }
    }

    /// Writes bytes (format 8) into a requestor's property.
    func write(_ bytes: Data, type: Atom, to property: Atom, of window: Window) {
        bytes.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            XChangeProperty(display, window, property, type, 8, PropModeReplace, base, Int32(bytes.count))
        }
    }

    /// Writes 32-bit items (atoms, an INCR size) into a requestor's property; Xlib takes them as C longs.
    func write(items: [UInt], type: Atom, to property: Atom, of window: Window) {
        items.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: items.count * 8) {
                _ = XChangeProperty(display, window, property, type, 32, PropModeReplace, $0, Int32(items.count))
            }
        }
    }

    /// Tells a requestor its conversion is done (`property` holds it) or refused (`property` 0).
    func notify(_ request: XSelectionRequestEvent, property: Atom) {
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.display = display
        event.xselection.requestor = request.requestor
        event.xselection.selection = request.selection
        event.xselection.target = request.target
        event.xselection.property = property
        event.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &event)
    }

    /// Hears (or stops hearing) property changes on someone else's window: an INCR transfer to it.
    func watchProperties(of window: Window, _ on: Bool) {
        XSelectInput(display, window, on ? Self.propertyChangeMask : 0)
    }

    /// The focused top-level window's WM_CLASS (instance, class): the input focus or else `_NET_ACTIVE_WINDOW`,
    /// walked up to the first window that has one.
    func focusedWindowClass() -> [String] {
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        if focus <= 1, let active = read(atoms.netActiveWindow, of: root, delete: false)?.items.first {
            focus = Window(active)
        }
        var window = focus
        while window > 1, window != root {
            var hint = XClassHint()
            if XGetClassHint(display, window, &hint) != 0 {
                defer {
                    if let name = hint.res_name { XFree(name) }
                    if let name = hint.res_class { XFree(name) }
                }
                return [hint.res_name, hint.res_class].compactMap { $0.map { String(cString: $0) } }
            }
            var parent: Window = 0
            var rootReturn: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0 else { break }
            if let children { XFree(children) }
            window = parent
        }
        return []
    }
}
