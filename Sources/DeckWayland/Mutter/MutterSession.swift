import CDeckShim
import DeckDesktop
import Foundation

/// One remote-desktop session with Mutter, as GNOME Remote Desktop opens it (no dialog): a
/// `org.gnome.Mutter.RemoteDesktop` session, the `org.gnome.Mutter.ScreenCast` session linked to it, one stream
/// (`RecordMonitor`) per monitor asked for, then `Start`. Input for the session goes through the same object.
///
/// Blocking: every call waits for Mutter's reply. `@unchecked Sendable`: the paths are immutable after `init`
/// and GDBus calls are thread-safe; callers keep the order of input events by calling from one queue.
final class MutterSession: RemoteInputSession, @unchecked Sendable {
    static let remoteDesktop = "org.gnome.Mutter.RemoteDesktop"
    static let screenCast = "org.gnome.Mutter.ScreenCast"
    private static let sessionInterface = "org.gnome.Mutter.RemoteDesktop.Session"

    /// Mutter's cursor modes for RecordMonitor (the portal's bitmask 1/2/4 numbers them differently).
    enum CursorMode: UInt32 {
        case hidden = 0
        case embedded = 1
        case metadata = 2
    }

    private let bus: SessionBus
    /// The session's object path: the RemoteDesktop session's, or the ScreenCast session's for a look-only one.
    let path: String
    /// Where `Start`, `Stop` and the input calls go (the session's service and interface).
    private let service: String
    private let interface: String
    /// The stream's object path (NotifyPointerMotionAbsolute names it) and its PipeWire node; nil without a
    /// monitor (an input-only session).
    let streamPath: String?
    let node: UInt32?
    private let stopped = LockedFlag()
    /// The keysyms the layout can type, read once per session.
    let layout = LayoutKeysyms()
    let pointerSettle = PointerSettle()

    /// What a session's stream records.
    enum Recording {
        /// No stream: input only (keys and buttons).
        case nothing
        /// The monitor on this connector (RecordMonitor).
        case monitor(String)
        /// A monitor Mutter makes for the stream (RecordVirtual): it appears once a consumer has fixed the stream's
        /// size, and goes when the stream stops (ARCHITECTURE.md "Extend on GNOME").
        case virtual
    }

    /// Opens and starts a session; with `monitor`, records that monitor (`cursor`) and waits for its PipeWire node.
    /// `input: false` opens a ScreenCast session alone (thumbnails): no virtual devices, no remote-control
    /// indicator, no input calls.
    convenience init(bus: SessionBus, monitor: Monitor?, cursor: CursorMode = .embedded, input: Bool = true)
        throws(DBusError)
    {
        try self.init(bus: bus, recording: monitor.map { .monitor($0.name) } ?? .nothing, cursor: cursor, input: input)
    }

    /// Opens and starts a session recording `recording` and waits for its stream's PipeWire node.
    init(bus: SessionBus, recording: Recording, cursor: CursorMode = .embedded, input: Bool = true)
        throws(DBusError)
    {
        if case .nothing = recording { precondition(input, "a session without input needs a stream") }
        self.bus = bus
        (service, interface) =
            input ? (Self.remoteDesktop, Self.sessionInterface) : (Self.screenCast, Self.castInterface)
        let remote = input ? try Self.createRemoteDesktop(bus) : nil
        let path = remote?.path ?? ""
        do {
            let record: (method: String, arguments: () -> OpaquePointer?)
            switch recording {
            case .nothing:
                try bus.call(service, path, interface, "Start")
                (self.path, streamPath, node) = (path, nil, nil)
                try warmUp()
                return
            case .monitor(let connector):
                record = ("RecordMonitor", { deck_gv_record_monitor(connector, cursor.rawValue) })
            case .virtual:
                record = ("RecordVirtual", { deck_gv_record_virtual(cursor.rawValue) })
            }
            let cast = try bus.call(
                Self.screenCast, "/org/gnome/Mutter/ScreenCast", Self.screenCast, "CreateSession",
                remote.map { deck_gv_screencast_options($0.id) } ?? deck_gv_no_options()
            ).child(0).string
            let started = remote == nil ? cast : path
            let stream = try bus.call(Self.screenCast, cast, Self.castInterface, record.method, record.arguments())
                .child(0).string
            // The node id comes as a signal once the session starts: subscribe first, then Start.
            let added = try bus.waitForSignal(
                sender: Self.screenCast, path: stream, interface: "org.gnome.Mutter.ScreenCast.Stream",
                member: "PipeWireStreamAdded", timeout: 10
            ) { [service, interface] () throws(DBusError) in
                try bus.call(service, started, interface, "Start")
            }
            (self.path, streamPath, node) = (started, stream, added.child(0).uint32)
            if input { try warmUp() }
        } catch {
            if !path.isEmpty { _ = try? bus.call(service, path, interface, "Stop", timeout: 2) }
            throw error
        }
    }

    private static let castInterface = "org.gnome.Mutter.ScreenCast.Session"

    /// A new RemoteDesktop session: its object path and the id a ScreenCast session links to.
    private static func createRemoteDesktop(_ bus: SessionBus) throws(DBusError) -> (path: String, id: String) {
        let path = try bus.call(remoteDesktop, "/org/gnome/Mutter/RemoteDesktop", remoteDesktop, "CreateSession")
            .child(0).string
        do {
            return (path, try bus.property(remoteDesktop, path, sessionInterface, "SessionId").string)
        } catch {
            _ = try? bus.call(remoteDesktop, path, sessionInterface, "Stop", timeout: 2)
            throw error
        }
    }

    deinit { stop() }

    /// Ends the session (Mutter ends its stream with it). Idempotent.
    func stop() {
        guard stopped.set() else { return }
        _ = try? bus.call(service, path, interface, "Stop", timeout: 2)
    }

    var isStopped: Bool { stopped.isSet }

    /// Puts the pointer at (`x`, `y`) of the stream (the monitor's own pixels).
    func move(x: Double, y: Double) throws(DBusError) {
        guard let streamPath else { throw WaylandInput.noStream }
        try notify("NotifyPointerMotionAbsolute", deck_gv_motion(streamPath, x, y))
    }

    /// Presses or releases an evdev button (BTN_LEFT 0x110…).
    func button(_ code: Int32, pressed: Bool) throws(DBusError) {
        try notify("NotifyPointerButton", deck_gv_button(code, pressed ? 1 : 0))
    }

    /// Turns the wheel `steps` notches on `axis` (0 vertical, 1 horizontal; positive: down or right).
    func axis(_ axis: UInt32, steps: Int32) throws(DBusError) {
        try notify("NotifyPointerAxisDiscrete", deck_gv_axis_discrete(axis, steps))
    }

    /// Makes Mutter create the session's virtual keyboard now with a Shift tap: Mutter loses the first key event
    /// of a session. Where the seat had no keyboard before (a headless compositor), clients learn of it a moment
    /// later. No pointer warm-up: a cursor update right after Start takes the stream's first frame slot (Mutter
    /// paces frames by the negotiated maximum rate) and the first picture of a still screen never came.
    private func warmUp() throws(DBusError) {
        try key(Self.shiftL, pressed: true)
        try key(Self.shiftL, pressed: false)
    }

    static let shiftL: UInt32 = 0xffe1

    /// Presses or releases the key Mutter finds for `keysym` (a modifier held around another key).
    func key(_ keysym: UInt32, pressed: Bool) throws(DBusError) {
        try notify("NotifyKeyboardKeysym", deck_gv_keysym(keysym, pressed ? 1 : 0))
    }

    private func notify(_ method: String, _ arguments: OpaquePointer?) throws(DBusError) {
        precondition(interface == Self.sessionInterface, "input through a look-only session")
        try bus.call(Self.remoteDesktop, path, Self.sessionInterface, method, arguments, timeout: 5)
    }
}

/// A flag that is set once, from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Sets it; returns whether this call did (false: it was already set).
    func set() -> Bool {
        lock.withLock {
            defer { value = true }
            return !value
        }
    }
    var isSet: Bool { lock.withLock { value } }
}

extension MutterSession: InputSession {
    var hasEnded: Bool { isStopped }
    func end() { stop() }
}
