import CDeckShim
import CGio
import Foundation

/// Why the portal gave no session.
public enum PortalError: Error, Equatable, Sendable {
    /// The computer's user refused (or closed the dialog): response 1.
    case denied
    /// The portal or its back-end failed (response 2, or a call that failed); the text says where.
    case failed(String)
}

/// One session with the desktop portal, as KDE, wlroots and other non-GNOME desktops offer screen capture and
/// remote input. A screen-cast session (`org.freedesktop.portal.ScreenCast` v4): CreateSession → SelectSources
/// (one monitor, the cursor as metadata when offered, `persist_mode` 2 with the last restore token, so the user
/// approves once) → Start → the stream's PipeWire node → OpenPipeWireRemote. A remote-desktop session
/// (`org.freedesktop.portal.RemoteDesktop`): CreateSession → SelectDevices (keyboard and pointer; persistence
/// there, from version 2) → SelectSources on the same session when a monitor is wanted → Start, which also says
/// which devices the user allowed; its input calls name the session. Every request answers through a `Response`
/// signal on its own object, subscribed to before the call (`SessionBus.waitForSignal`).
///
/// Blocking; `@unchecked Sendable`: immutable after `init` apart from the closed flag (GDBus calls are
/// thread-safe; callers keep the order of input events by calling from one queue).
final class PortalSession: RemoteInputSession, @unchecked Sendable {
    static let portal = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let screenCast = "org.freedesktop.portal.ScreenCast"
    static let remoteDesktop = "org.freedesktop.portal.RemoteDesktop"

    /// What a session is for.
    enum Kind: Equatable {
        /// A screen cast (no input).
        case screenCast
        /// Remote input, with the monitor's stream when `monitor`; `persist` when the portal keeps approvals
        /// (RemoteDesktop version 2 and later).
        case remoteDesktop(monitor: Bool, persist: Bool)
    }

    /// The RemoteDesktop portal's device types.
    static let keyboard: UInt32 = 1
    static let pointer: UInt32 = 2

    /// The ScreenCast portal's source types (window, 2, is not used): one of the desktop's monitors, picked by the
    /// user; a monitor the portal makes.
    static let monitorSource: UInt32 = 1
    static let virtualSource: UInt32 = 4

    private let bus: SessionBus
    /// The session's object path.
    let handle: String
    /// The stream: its PipeWire node and size (the monitor's pixels); nil for an input-only session.
    let stream: (node: UInt32, width: Int, height: Int)?
    /// The devices the user allowed (`keyboard`, `pointer`); 0 for a screen cast.
    let devices: UInt32
    /// Whether this is a remote-desktop session (its input calls work once the user allowed them).
    let isRemoteDesktop: Bool
    /// What to pass next time so the user is not asked again (nil: the portal gave none).
    let restoreToken: String?
    /// The keysyms the layout can type, read once per session.
    let layout = LayoutKeysyms()
    let pointerSettle = PointerSettle()
    private let closed = LockedFlag()

    /// Opens and starts a session of `kind`; `restoreToken` is the one an earlier start returned. `sources`: the
    /// source type its stream is of (`monitorSource`, or `virtualSource`: a monitor the portal makes for it).
    init(bus: SessionBus, kind: Kind = .screenCast, sources: UInt32 = monitorSource, restoreToken: String?)
        throws(PortalError)
    {
        self.bus = bus
        isRemoteDesktop = kind != .screenCast
        let interface = kind == .screenCast ? Self.screenCast : Self.remoteDesktop
        let created = try Self.request(bus, interface, "CreateSession") { token in
            deck_gv_portal_create_session(token, "touchdeck\(Self.nextToken())")
        }
        guard let handle = Self.string(created, "session_handle") else { throw .failed("CreateSession: no session") }
        self.handle = handle
        do {
            var wantsMonitor = true
            if case .remoteDesktop(let monitor, let persist) = kind {
                wantsMonitor = monitor
                _ = try Self.request(bus, Self.remoteDesktop, "SelectDevices") { token in
                    deck_gv_portal_select_devices(
                        handle, token, Self.keyboard | Self.pointer, persist ? 1 : 0, persist ? restoreToken : nil)
                }
            }
            if wantsMonitor {
                let cursor = Self.cursorMode(bus)
                let persist = kind == .screenCast
                _ = try Self.request(bus, Self.screenCast, "SelectSources") { token in
                    deck_gv_portal_select_sources(
                        handle, token, sources, cursor, persist ? 1 : 0, persist ? restoreToken : nil)
                }
            }
            let started = try Self.request(bus, interface, "Start") { token in deck_gv_portal_start(handle, token) }
            var node: UInt32 = 0
            var width: Int32 = 0
            var height: Int32 = 0
            if deck_gv_first_stream(started.raw, &node, &width, &height) == 0 {
                stream = (node, Int(width), Int(height))
            } else if wantsMonitor {
                throw PortalError.failed("Start: no stream")
            } else {
                stream = nil
            }
            var granted: UInt32 = 0
            devices = deck_gv_lookup_uint32(started.raw, "devices", &granted) == 0 ? granted : 0
            self.restoreToken = Self.string(started, "restore_token")
            // As with Mutter (which GNOME's portal back-end drives), the first key of a session is lost and the
            // seat's clients learn of the virtual keyboard only once it is used: a Shift tap first.
            if devices & Self.keyboard != 0 { try tap(keysym: WaylandStrokes.shiftL) }
        } catch {
            _ = try? bus.call(Self.portal, handle, "org.freedesktop.portal.Session", "Close", timeout: 2)
            throw error as? PortalError ?? .failed("\(error)")
        }
    }

    deinit { close() }

    /// The PipeWire connection the portal opens for this session (a descriptor the caller owns).
    func openRemote() throws(PortalError) -> Int32 {
        do {
            return try bus.callForDescriptor(
                Self.portal, Self.objectPath, Self.screenCast, "OpenPipeWireRemote", deck_gv_session_no_options(handle))
        } catch { throw .failed("OpenPipeWireRemote: \(error)") }
    }

    /// Ends the session (the portal ends its stream and devices). Idempotent.
    func close() {
        guard closed.set() else { return }
        _ = try? bus.call(Self.portal, handle, "org.freedesktop.portal.Session", "Close", timeout: 2)
    }

    var isClosed: Bool { closed.isSet }

    /// Why input goes nowhere while the session runs: a remote-desktop session whose user did not allow the pointer.
    var inputRefusal: String? {
        guard isRemoteDesktop, devices & Self.pointer == 0 else { return nil }
        return PortalDesktop.notAllowed
    }

    // MARK: Remote input (a remote-desktop session)

    /// Puts the pointer at (`x`, `y`) of the stream (the monitor's own pixels).
    func move(x: Double, y: Double) throws(DBusError) {
        guard let stream else { throw WaylandInput.noStream }
        try notify("NotifyPointerMotionAbsolute", deck_gv_portal_motion(handle, stream.node, x, y))
    }

    /// Presses or releases an evdev button (BTN_LEFT 0x110…).
    func button(_ code: Int32, pressed: Bool) throws(DBusError) {
        try notify("NotifyPointerButton", deck_gv_portal_button(handle, code, pressed ? 1 : 0))
    }

    /// Turns the wheel `steps` notches on `axis` (0 vertical, 1 horizontal; positive: down or right).
    func axis(_ axis: UInt32, steps: Int32) throws(DBusError) {
        try notify("NotifyPointerAxisDiscrete", deck_gv_portal_axis_discrete(handle, axis, steps))
    }

    func key(_ keysym: UInt32, pressed: Bool) throws(DBusError) {
        try notify("NotifyKeyboardKeysym", deck_gv_portal_keysym(handle, keysym, pressed ? 1 : 0))
    }

    private func notify(_ method: String, _ arguments: OpaquePointer?) throws(DBusError) {
        try bus.call(Self.portal, Self.objectPath, Self.remoteDesktop, method, arguments, timeout: 5)
    }

    // MARK: Requests

    /// Metadata (4) when the portal offers it, else embedded (2): the portal's bitmask, not Mutter's numbers.
    private static func cursorMode(_ bus: SessionBus) -> UInt32 {
        let modes = (try? bus.property(portal, objectPath, screenCast, "AvailableCursorModes").uint32) ?? 0
        return modes & 4 != 0 ? 4 : 2
    }

    /// Calls `method` of `interface` with a fresh handle token and waits (up to 60 s: the user may be choosing)
    /// for its `Response`; returns the results dictionary of a response 0.
    private static func request(
        _ bus: SessionBus, _ interface: String, _ method: String, _ arguments: (String) -> OpaquePointer?
    ) throws(PortalError) -> Variant {
        let token = "touchdeck\(nextToken())"
        let sender = bus.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_")
        let path = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        let response: Variant
        do {
            response = try bus.waitForSignal(
                sender: portal, path: path, interface: "org.freedesktop.portal.Request", member: "Response",
                timeout: 60
            ) { () throws(DBusError) in
                try bus.call(portal, objectPath, interface, method, arguments(token))
            }
        } catch { throw .failed("\(method): \(error)") }
        switch response.child(0).uint32 {
        case 0: return response.child(1)
        case 1: throw .denied
        default: throw .failed("\(method): the portal answered \(response.child(0).uint32)")
        }
    }

    private static func string(_ dictionary: Variant, _ key: String) -> String? {
        guard let value = deck_gv_lookup_string(dictionary.raw, key) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    private static let tokens = NSLock()
    nonisolated(unsafe) private static var lastToken = 0

    /// A number for handle tokens, unique in this process.
    private static func nextToken() -> Int {
        tokens.withLock {
            lastToken += 1
            return lastToken
        }
    }
}

extension PortalSession: InputSession {
    var hasEnded: Bool { isClosed }
    func end() { close() }
}
