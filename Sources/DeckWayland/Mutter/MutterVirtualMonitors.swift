import CDeckShim
import DeckDesktop
import DeckKit
import Foundation

/// Extend on GNOME (DESIGN.md#viewing, PROTOCOL §6 "Extend"; ARCHITECTURE "Extend on GNOME"): a monitor Mutter makes
/// for a ScreenCast `RecordVirtual` stream of a session tied to a RemoteDesktop session, so input goes through that
/// stream like any capture's.
///
/// Mutter makes the monitor only when a consumer has connected and the stream's format is fixed, at the size the
/// consumer fixed (its producer offers any size from 1×1 up): so the host's PipeWire consumer connects here, in
/// `create`, offering exactly the device's size, and `capture` later takes over that running stream. Mutter gives
/// the monitor scale 1 and puts it right of the others; DisplayConfig's ApplyMonitorsConfig (temporary) then gives it
/// the supported scale nearest the device's and the asked place. The monitor exists while the stream runs: stopping
/// the session removes it, and so does the host's end, even by `kill -9` (Mutter closes a session whose D-Bus peer
/// vanished), so there is no record to clean up after.
final class MutterVirtualMonitors: @unchecked Sendable {
    private let desktop: MutterDesktop
    /// Guards `made`.
    private let lock = NSLock()
    /// The monitors made and not yet removed, by connector.
    private var made: [String: MadeMonitor<MutterSession>] = [:]

    init(desktop: MutterDesktop) { self.desktop = desktop }

    /// The seam's value.
    var virtualMonitors: VirtualMonitors {
        VirtualMonitors(
            unavailable: { Self.unavailable() },
            create: { request throws(ScreenSourceError) in try self.create(request) },
            remove: { monitor in self.remove(monitor.name) },
            cleanUp: { nil },
            existing: { self.lock.withLock { self.made.keys.sorted() } })
    }

    /// Why this Mutter cannot make a monitor; nil when its ScreenCast has RecordVirtual (API version 4 or later).
    static func unavailable() -> String? {
        guard let bus = try? SessionBus(), bus.hasOwner(MutterSession.screenCast),
            bus.hasOwner(MutterSession.remoteDesktop)
        else { return "Mutter's ScreenCast and RemoteDesktop are not on the session bus" }
        let path = "/org/gnome/Mutter/ScreenCast"
        guard let version = try? bus.property(MutterSession.screenCast, path, MutterSession.screenCast, "Version"),
            version.isOfType("i")
        else { return "Mutter's ScreenCast does not say its version" }
        let number = g_variant_get_int32(version.raw)
        return number >= 4 ? nil : "Mutter's ScreenCast is version \(number): RecordVirtual needs version 4"
    }

    /// How long Mutter may take to list the monitor after the consumer connected, and to drop it after the stop.
    static let appearing: Double = 10
    static let going: Double = 3

    func create(_ request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        let bus = try desktop.openBusOnQueue()
        let before: Set<String>
        do { before = Set(try MutterMonitors.current(on: bus).map(\.name)) } catch {
            throw WaylandInput.screenError(error)
        }
        let session: MutterSession
        do { session = try MutterSession(bus: bus, recording: .virtual, cursor: .metadata) } catch {
            throw .captureFailed("Mutter refused a virtual monitor's stream: \(error)")
        }
        let relay = FrameRelay()
        let stream: PipeWireStream
        do {
            stream = try PipeWireStream(
                node: session.node!, fps: 30, handlers: relay.handlers(ending: session.stop),
                size: (request.width, request.height))
        } catch {
            session.stop()
            throw error
        }
        let made = MadeMonitor(
            session: session, stream: stream, relay: relay, size: (request.width, request.height),
            endSession: { $0.stop() })
        do throws(ScreenSourceError) {
            let name = try Self.waitForMonitor(on: bus, besides: before)
            lock.withLock { self.made[name] = made }
            do throws(ScreenSourceError) { return try place(name, request, on: bus) } catch {
                _ = remove(name)
                throw error
            }
        } catch {
            made.stop()
            throw error
        }
    }

    /// The connector of the monitor that appeared besides `before`.
    private static func waitForMonitor(on bus: SessionBus, besides before: Set<String>) throws(ScreenSourceError)
        -> String
    {
        let ends = Date().addingTimeInterval(appearing)
        while Date() < ends {
            if let added = try? MutterMonitors.current(on: bus).first(where: { !before.contains($0.name) }) {
                return added.name
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw .captureFailed("Mutter made no monitor for the virtual stream within \(Int(appearing)) s")
    }

    /// Gives the new monitor its scale and place (ApplyMonitorsConfig, temporary) and reads back where it is.
    private func place(_ name: String, _ request: ExtendRequest, on bus: SessionBus) throws(ScreenSourceError)
        -> VirtualMonitor
    {
        let state = try Self.currentState(bus)
        let monitors = try Self.monitors(in: state)
        guard let new = monitors.first(where: { $0.name == name }) else { throw .noSuchMonitor }
        guard (new.frame.width, new.frame.height) == (request.width, request.height) else {
            throw .captureFailed(
                "Mutter made a \(new.frame.width)×\(new.frame.height) monitor for a \(request.width)×\(request.height) "
                    + "stream")
        }
        var scales = [Double](repeating: 0, count: 16)
        let count = deck_gv_supported_scales(state.raw, name, &scales, Int32(scales.count))
        let scale = Self.nearest(request.scale, among: Array(scales.prefix(Int(count))))
        let logical = deck_gv_layout_mode(state.raw) == 1
        let layout = monitors.map { monitor in
            let scale = monitor.name == name ? scale : monitor.scale
            return MutterLayout.Box(
                name: monitor.name, rect: MutterLayout.rect(monitor.frame, scale: scale, logical: logical))
        }
        let placed = MutterLayout.place(name, request.placement, in: layout)
        var placements = placed.map { box in
            var placement = deck_placement()
            withUnsafeMutableBytes(of: &placement.connector) { bytes in
                let utf8 = Array(box.name.utf8.prefix(bytes.count - 1))
                bytes.copyBytes(from: utf8)
            }
            placement.x = Int32(box.rect.x)
            placement.y = Int32(box.rect.y)
            placement.scale = box.name == name ? scale : (monitors.first { $0.name == box.name }?.scale ?? 1)
            return placement
        }
        if let arguments = deck_gv_apply_monitors(state.raw, &placements, Int32(placements.count)) {
            do {
                try bus.call(
                    MutterMonitors.destination, MutterMonitors.path, MutterMonitors.destination,
                    "ApplyMonitorsConfig", arguments)
            } catch { throw .captureFailed("Mutter refused the new monitor's place and scale: \(error)") }
        }
        let after = try Self.currentState(bus)
        guard let monitor = try Self.monitors(in: after).first(where: { $0.name == name }) else { throw .noSuchMonitor }
        let area = MutterLayout.rect(monitor.frame, scale: monitor.scale, logical: deck_gv_layout_mode(after.raw) == 1)
        return VirtualMonitor(
            monitor: monitor, pointerArea: area,
            capture: { _, fps, handlers in try self.capture(name, fps: fps, handlers: handlers) })
    }

    private static func currentState(_ bus: SessionBus) throws(ScreenSourceError) -> Variant {
        do {
            return try bus.call(
                MutterMonitors.destination, MutterMonitors.path, MutterMonitors.destination, "GetCurrentState")
        } catch { throw WaylandInput.screenError(error) }
    }

    private static func monitors(in state: Variant) throws(ScreenSourceError) -> [Monitor] {
        do { return try MutterMonitors.monitors(in: state) } catch { throw WaylandInput.screenError(error) }
    }

    /// The supported scale nearest `wanted` (1 when Mutter lists none).
    static func nearest(_ wanted: Double, among scales: [Double]) -> Double {
        scales.min { abs($0 - wanted) < abs($1 - wanted) } ?? 1
    }

    /// The capture of a made monitor: its running stream, handed to the viewing.
    private func capture(_ name: String, fps: Int, handlers: CaptureHandlers) throws(ScreenSourceError)
        -> any ScreenCapture
    {
        guard let made = lock.withLock({ self.made[name] }) else { throw .noSuchMonitor }
        let (session, desktop) = (made.session, desktop)
        return try made.capture(
            fps: fps, handlers: handlers,
            joined: {
                desktop.sessions.started(session)
                desktop.clipboard.attach(session)
            },
            left: {
                desktop.sessions.ended(session)
                desktop.clipboard.detach(session)
            })
    }

    /// Stops the monitor's stream and session and waits (a few seconds at most) for Mutter to drop it.
    func remove(_ name: String) -> String? {
        let made = lock.withLock { self.made.removeValue(forKey: name) }
        made?.stop()
        guard let bus = try? desktop.openBusOnQueue() else { return nil }
        let ends = Date().addingTimeInterval(Self.going)
        while Date() < ends {
            guard let listed = try? MutterMonitors.current(on: bus), listed.contains(where: { $0.name == name }) else {
                return nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return "Mutter still lists \(name) \(Int(Self.going)) s after its stream stopped"
    }
}

/// Where monitors lie in Mutter's layout (its stage's coordinates), for placing a made one.
enum MutterLayout {
    struct Box: Equatable {
        var name: String
        var rect: PixelRect
    }

    /// A monitor's rectangle in the layout: its mode's size divided by its scale in the logical layout mode, the
    /// mode's size in the physical one.
    static func rect(_ frame: PixelRect, scale: Double, logical: Bool) -> PixelRect {
        guard logical, scale > 0 else { return frame }
        return PixelRect(
            x: frame.x, y: frame.y, width: Int((Double(frame.width) / scale).rounded()),
            height: Int((Double(frame.height) / scale).rounded()))
    }

    /// Every box with `name` moved beside the box around the others (top- or left-aligned with it), then all moved so
    /// the layout starts at (0, 0), as Mutter requires.
    static func place(_ name: String, _ placement: ExtendRequest.Placement, in boxes: [Box]) -> [Box] {
        let others = boxes.filter { $0.name != name }
        guard var new = boxes.first(where: { $0.name == name }), !others.isEmpty else {
            return boxes.map { box in
                Box(name: box.name, rect: PixelRect(x: 0, y: 0, width: box.rect.width, height: box.rect.height))
            }
        }
        let left = others.map(\.rect.x).min()!
        let top = others.map(\.rect.y).min()!
        let right = others.map { $0.rect.x + $0.rect.width }.max()!
        let bottom = others.map { $0.rect.y + $0.rect.height }.max()!
        switch placement {
        case .right: (new.rect.x, new.rect.y) = (right, top)
        case .left: (new.rect.x, new.rect.y) = (left - new.rect.width, top)
        case .below: (new.rect.x, new.rect.y) = (left, bottom)
        case .above: (new.rect.x, new.rect.y) = (left, top - new.rect.height)
        }
        let all = others + [new]
        let (dx, dy) = (all.map(\.rect.x).min()!, all.map(\.rect.y).min()!)
        return all.map { box in
            var moved = box
            moved.rect.x -= dx
            moved.rect.y -= dy
            return moved
        }
    }
}
