import CDeckShim
import CGio
import Foundation

/// Why the ScreenCast portal gave no stream.
public enum PortalError: Error, Equatable, Sendable {
    /// The computer's user refused (or closed the dialog): response 1.
    case denied
    /// The portal or its back-end failed (response 2, or a call that failed); the text says where.
    case failed(String)
}

/// One session with the ScreenCast portal (`org.freedesktop.portal.ScreenCast` v4), as KDE, wlroots and other
/// non-GNOME desktops offer screen capture: CreateSession → SelectSources (one monitor, the cursor as metadata when
/// offered, `persist_mode` 2 with the last restore token, so the user approves once) → Start → the stream's
/// PipeWire node → OpenPipeWireRemote. Every request answers through a `Response` signal on its own object,
/// subscribed to before the call (`SessionBus.waitForSignal`).
///
/// Blocking; `@unchecked Sendable`: immutable after `init` apart from the closed flag.
final class PortalSession: @unchecked Sendable {
    static let portal = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let screenCast = "org.freedesktop.portal.ScreenCast"

    private let bus: SessionBus
    /// The session's object path.
    let handle: String
    /// The stream: its PipeWire node and size (the monitor's pixels).
    let node: UInt32
    let width: Int
    let height: Int
    /// What to pass next time so the user is not asked again (nil: the portal gave none).
    let restoreToken: String?
    private let closed = LockedFlag()

    /// Opens and starts a session; `restoreToken` is the one an earlier start returned.
    init(bus: SessionBus, restoreToken: String?) throws(PortalError) {
        self.bus = bus
        let created = try Self.request(bus, "CreateSession") { token in
            deck_gv_portal_create_session(token, "touchdeck\(Self.nextToken())")
        }
        guard let handle = Self.string(created, "session_handle") else { throw .failed("CreateSession: no session") }
        self.handle = handle
        do {
            let cursor = Self.cursorMode(bus)
            _ = try Self.request(bus, "SelectSources") { token in
                deck_gv_portal_select_sources(handle, token, cursor, restoreToken)
            }
            let started = try Self.request(bus, "Start") { token in deck_gv_portal_start(handle, token) }
            var node: UInt32 = 0
            var width: Int32 = 0
            var height: Int32 = 0
            guard deck_gv_first_stream(started.raw, &node, &width, &height) == 0 else {
                throw PortalError.failed("Start: no stream")
            }
            (self.node, self.width, self.height) = (node, Int(width), Int(height))
            self.restoreToken = Self.string(started, "restore_token")
        } catch let error as PortalError {
            _ = try? bus.call(Self.portal, handle, "org.freedesktop.portal.Session", "Close", timeout: 2)
            throw error
        } catch {
            throw .failed("\(error)")
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

    /// Ends the session (the portal ends its stream). Idempotent.
    func close() {
        guard closed.set() else { return }
        _ = try? bus.call(Self.portal, handle, "org.freedesktop.portal.Session", "Close", timeout: 2)
    }

    /// Metadata (4) when the portal offers it, else embedded (2): the portal's bitmask, not Mutter's numbers.
    private static func cursorMode(_ bus: SessionBus) -> UInt32 {
        let modes = (try? bus.property(portal, objectPath, screenCast, "AvailableCursorModes").uint32) ?? 0
        return modes & 4 != 0 ? 4 : 2
    }

    /// Calls `method` with a fresh handle token and waits (up to 60 s: the user may be choosing) for its
    /// `Response`; returns the results dictionary of a response 0.
    private static func request(_ bus: SessionBus, _ method: String, _ arguments: (String) -> OpaquePointer?)
        throws(PortalError) -> Variant
    {
        let token = "touchdeck\(nextToken())"
        let sender = bus.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_")
        let path = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        let response: Variant
        do {
            response = try bus.waitForSignal(
                sender: portal, path: path, interface: "org.freedesktop.portal.Request", member: "Response",
                timeout: 60
            ) { () throws(DBusError) in
                try bus.call(portal, objectPath, screenCast, method, arguments(token))
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
