import DeckDesktop
import Dispatch
import Foundation

/// KDE, wlroots and other Wayland desktops without Mutter, through the desktop portal (DESIGN.md#viewing): monitors
/// from the compositor's outputs, captures through `PortalCapture`. Without remote input (`remoteDesktop` nil) a
/// capture is a ScreenCast session, approved once per monitor (a restore token for each monitor is kept in the config
/// dir: the portal restores the monitor a token was given for). With the RemoteDesktop
/// portal (KDE), a capture is a remote-desktop session with the monitor's stream, so one approval covers the screen,
/// the pointer and the keys, and input goes through it (`PortalInput`); before RemoteDesktop version 2 the portal
/// keeps no approval, and the user is asked at every start.
///
/// `@unchecked Sendable`: what changes is in `sessions` (which keeps input events in order on its queue).
public final class PortalDesktop: @unchecked Sendable {
    let token: PortalRestoreToken
    private let queue = DispatchQueue(label: "touchdeck.portal")
    /// The RemoteDesktop portal's version, when input goes through it.
    let remoteDesktop: UInt32?
    /// The captures' remote-desktop sessions and one for input while no capture runs (e.g. the keypad).
    let sessions: InputSessions<PortalSession>

    /// A desktop whose restore token lives in `configDirectory`; `remoteDesktop` is the RemoteDesktop portal's
    /// version when input should go through it (`remoteDesktopVersion()`), nil for the screen alone.
    public init(configDirectory: URL, remoteDesktop: UInt32? = nil, inputIdle: Double = 300) {
        self.remoteDesktop = remoteDesktop
        sessions = InputSessions(queue: DispatchQueue(label: "touchdeck.portal-input"), idle: inputIdle)
        token = PortalRestoreToken(
            directory: configDirectory,
            name: remoteDesktop == nil ? "portal-restore-token" : "portal-remote-restore-token")
    }

    /// Whether the ScreenCast portal (version 4: persistent sessions) answers on the session bus.
    public static func isAvailable() -> Bool {
        guard let version = version(of: PortalSession.screenCast) else { return false }
        return version >= 4
    }

    /// The RemoteDesktop portal's version when it answers on the session bus and offers a keyboard and a pointer.
    public static func remoteDesktopVersion() -> UInt32? {
        guard let version = version(of: PortalSession.remoteDesktop),
            let types = property(PortalSession.remoteDesktop, "AvailableDeviceTypes"),
            types & (PortalSession.keyboard | PortalSession.pointer) != 0
        else { return nil }
        return version
    }

    private static func version(of interface: String) -> UInt32? { property(interface, "version") }

    /// A `u` property of one of the portal's interfaces; nil when the portal does not answer.
    static func property(_ interface: String, _ name: String) -> UInt32? {
        guard let bus = try? SessionBus(),
            let value = try? bus.property(PortalSession.portal, PortalSession.objectPath, interface, name),
            value.isOfType("u")
        else { return nil }
        return value.uint32
    }

    /// What a session of this desktop is (`monitor`: with a stream).
    func kind(monitor: Bool) -> PortalSession.Kind {
        guard let remoteDesktop else { return .screenCast }
        return .remoteDesktop(monitor: monitor, persist: remoteDesktop >= 2)
    }

    /// Whether the portal keeps the user's approval (a restore token) between sessions.
    var persists: Bool { (remoteDesktop ?? 2) >= 2 }

    /// A screencopy of `monitor` for a cast that has sent no picture yet (`StillPicture`; wlroots only), when no
    /// other output has a size the cast's stream could also have: then the output the portal streams can only be
    /// this one (`PortalCapture.fits`), and the still shows nothing the user did not choose to share.
    static func still(of monitor: Monitor) -> StillPicture? {
        guard let outputs = WaylandOutputs.current(), onlyOutputOfItsSize(monitor, among: outputs) else { return nil }
        return StillPicture(output: monitor.name)
    }

    /// Whether no other output of `outputs` could be streamed as `monitor` (its pixels or layout size, either way
    /// round: what `PortalCapture.fits` accepts).
    static func onlyOutputOfItsSize(_ monitor: Monitor, among outputs: [Monitor]) -> Bool {
        !outputs.contains { other in
            other.name != monitor.name
                && PortalCapture.streamSizes(of: other).contains {
                    PortalCapture.fits(monitor, width: $0.0, height: $0.1)
                }
        }
    }

    public var screen: ScreenSource {
        let token = token
        let kind = kind(monitor: true)
        let start: StartCapture = { monitor, fps, handlers in
            try PortalCapture(
                bus: try Self.bus(), kind: kind, token: token.forMonitor(monitor.name), monitor: monitor, fps: fps,
                handlers: handlers, still: { Self.still(of: monitor) },
                started: { session in self.sessions.started(session) },
                ended: { session in self.sessions.ended(session) })
        }
        let persists = persists
        let extendToken = extendToken
        return ScreenSource(
            monitors: {
                try await self.blocking { () throws(ScreenSourceError) in
                    guard let outputs = WaylandOutputs.current(), !outputs.isEmpty else { throw .noDisplay }
                    return WaylandOutputs.placed(outputs, by: SwayIPC.find()?.outputs())
                }
            },
            // A still screen sends no first frame through xdg-desktop-portal-wlr (it waits for damage): there the
            // capture shows a screencopy instead (`still(of:)`); elsewhere a thumbnail waits 3 s at most, then the
            // display is listed without one. Before the user first approved there is no thumbnail at all: listing
            // must not put a dialog on the computer's screen.
            grab: { monitor in
                try await self.blocking { () throws(ScreenSourceError) in
                    guard persists, token.forMonitor(monitor.name).load() != nil else {
                        throw .captureFailed("screen sharing is not approved yet")
                    }
                    return try grabFirstFrame(monitor, start, seconds: 3)
                }
            },
            capture: start,
            // No restore token for the monitor (or a portal that keeps none): the portal asks the user (KDE's dialog,
            // the chooser on wlroots; a refused or stale token asks again). No monitor: the one Extend makes.
            needsApproval: { monitor in
                !persists || (monitor.map { token.forMonitor($0.name) } ?? extendToken).load() == nil
            })
    }

    /// Input on a desktop with no way to take it (neither the RemoteDesktop portal nor wlroots' virtual devices
    /// nor a writable `/dev/uinput`).
    public static let noInput = InputSink.failing(.noInjection)

    /// Keypad keys on such a desktop.
    public static let noKeypad = KeyInjector { _ in .failed(noInputReason) }

    /// Why such a desktop cannot type.
    public static let noInputReason =
        "this Wayland desktop takes no remote keys (no RemoteDesktop portal, no virtual keyboard, no writable /dev/uinput)"

    static func bus() throws(ScreenSourceError) -> SessionBus {
        do { return try SessionBus() } catch { throw WaylandInput.screenError(error) }
    }

    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws(ScreenSourceError) -> T) async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { () throws(ScreenSourceError) in try body() }) }
        }
    }
}
