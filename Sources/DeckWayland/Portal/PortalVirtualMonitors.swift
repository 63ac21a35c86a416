import DeckDesktop
import DeckKit
import Foundation

/// Extend through the ScreenCast portal's virtual source type (docs/ARCHITECTURE.md, "Extend on other portal
/// desktops"): where the portal advertises it (KDE Plasma 6.5 and later), a session whose source is a monitor the
/// portal's compositor makes for it and keeps while the session runs. No portal option carries a size: the computer's
/// user picks it in the portal's dialog, and the portal keeps it in the session's restore data. So each size a device
/// asks for has a restore token of its own (`portal-extend-restore-token-virtual-2388x1668`): after the user picked
/// the device's size once per orientation, a turn asks nothing. A monitor of another size is refused (the stream is
/// exactly the device's size, never scaled) and its token is not kept, so the dialog comes again next time. The
/// compositor places the monitor and gives it scale 1; the device's placement and scale are not asked for.
///
/// Like Mutter's virtual monitor it lives with its session: `create` starts the session and its stream, the viewing's
/// capture takes that running stream over (`FrameRelay`), and `remove` (queued when the capture stops) closes the
/// session. A killed host leaves nothing: the portal closes the sessions of a D-Bus peer that vanished.
final class PortalVirtualMonitors: @unchecked Sendable {
    private let desktop: PortalDesktop
    /// Guards `made`.
    private let lock = NSLock()
    private var made: [String: MadeMonitor<PortalSession>] = [:]

    init(desktop: PortalDesktop) { self.desktop = desktop }

    /// The seam's value.
    var virtualMonitors: VirtualMonitors {
        VirtualMonitors(
            unavailable: { Self.unavailable() },
            create: { request throws(ScreenSourceError) in try self.create(request) },
            remove: { monitor in self.remove(monitor.name) },
            existing: { self.lock.withLock { self.made.keys.sorted() } },
            needsApproval: { request in !self.desktop.persists || self.token(for: request).load() == nil })
    }

    /// Why the portal makes no monitor here; nil when its ScreenCast advertises the virtual source type.
    static func unavailable() -> String? {
        let types = PortalDesktop.screenCastSourceTypes()
        return (types ?? 0) & PortalSession.virtualSource != 0 ? nil : PortalDesktop.noExtendReason
    }

    /// How long the compositor may take to list the new monitor's output after the session started, and to drop it
    /// after the session closed.
    static let appearing: Double = 5
    static let going: Double = 3

    /// The restore token of the virtual monitors of the request's size.
    func token(for request: ExtendRequest) -> PortalRestoreToken {
        desktop.extendToken.forMonitor("virtual-\(request.width)x\(request.height)")
    }

    func create(_ request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        let bus = try PortalDesktop.bus()
        let before = Set((WaylandOutputs.current() ?? []).map(\.name))
        let token = token(for: request)
        let session: PortalSession
        do {
            session = try PortalSession(
                bus: bus, kind: desktop.kind(monitor: true), sources: PortalSession.virtualSource,
                restoreToken: token.load())
        } catch { throw PortalCapture.screenError(error) }
        guard let given = session.stream, (given.width, given.height) == (request.width, request.height) else {
            session.close()
            let size = session.stream.map { "a \($0.width)×\($0.height)" } ?? "no"
            throw .captureFailed(
                "the desktop made \(size) monitor for this \(request.width)×\(request.height) device: choose a virtual "
                    + "screen of \(request.width)×\(request.height) when the computer asks")
        }
        if let renewed = session.restoreToken { try? token.save(renewed) }
        let relay = FrameRelay()
        let stream: PipeWireStream
        do throws(ScreenSourceError) {
            let remote: Int32
            do { remote = try session.openRemote() } catch { throw PortalCapture.screenError(error) }
            stream = try PipeWireStream(
                node: given.node, fps: 30, handlers: relay.handlers(ending: session.close), remote: remote)
        } catch {
            session.close()
            throw error
        }
        let output = Self.waitForOutput(besides: before, size: request)
        let name = output?.name ?? "virtual-\(request.width)x\(request.height)"
        lock.withLock {
            made[name] = MadeMonitor(
                session: session, stream: stream, relay: relay, size: (request.width, request.height),
                endSession: { $0.close() })
        }
        let frame = output?.frame ?? PixelRect(x: 0, y: 0, width: request.width, height: request.height)
        return VirtualMonitor(
            monitor: Monitor(id: MonitorID.of(connector: name), name: name, frame: frame),
            capture: { _, fps, handlers in try self.capture(name, fps: fps, handlers: handlers) })
    }

    /// The output of `size` that appeared besides `before` (nil when none came: the monitor is then known by the
    /// session alone).
    private static func waitForOutput(besides before: Set<String>, size: ExtendRequest) -> Monitor? {
        let ends = Date().addingTimeInterval(appearing)
        while Date() < ends {
            let added = (WaylandOutputs.current() ?? []).first { output in
                !before.contains(output.name) && (output.frame.width, output.frame.height) == (size.width, size.height)
            }
            if let added { return added }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// The capture of a made monitor: its running stream, handed to the viewing, whose input goes through the
    /// session while it runs.
    private func capture(_ name: String, fps: Int, handlers: CaptureHandlers) throws(ScreenSourceError)
        -> any ScreenCapture
    {
        guard let made = lock.withLock({ self.made[name] }) else { throw .noSuchMonitor }
        let (session, desktop) = (made.session, desktop)
        return try made.capture(
            fps: fps, handlers: handlers, inputRefusal: session.inputRefusal,
            joined: { desktop.sessions.started(session) }, left: { desktop.sessions.ended(session) })
    }

    /// Closes the monitor's session and waits (a few seconds at most) for its output to go (or to be the made size
    /// no more: a compositor that cannot remove an output may park it).
    func remove(_ name: String) -> String? {
        guard let made = lock.withLock({ self.made.removeValue(forKey: name) }) else { return nil }
        made.stop()
        let ends = Date().addingTimeInterval(Self.going)
        while Date() < ends {
            let outputs = WaylandOutputs.current() ?? []
            guard outputs.contains(where: { $0.name == name && ($0.frame.width, $0.frame.height) == made.size }) else {
                return nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return "the desktop still lists \(name) \(Int(Self.going)) s after its portal session closed"
    }
}
