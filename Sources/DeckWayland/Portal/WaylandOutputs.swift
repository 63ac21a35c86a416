import CWayland
import DeckDesktop
import Foundation

/// The compositor's outputs as any Wayland client sees them (wl_output, version 4 for names): the monitors the
/// portal back-end lists, since the ScreenCast portal says which monitor it chose only once it has started.
///
/// The listener tables are `nonisolated(unsafe)`: built once, never written after, only read by libwayland.
enum WaylandOutputs {
    /// The outputs, left to right; nil when there is no Wayland display.
    static func current(display name: String? = nil) -> [Monitor]? {
        guard let display = wl_display_connect(name) else { return nil }
        defer { wl_display_disconnect(display) }
        let reader = OutputReader()
        let me = Unmanaged.passUnretained(reader).toOpaque()  // the reader outlives the connection (this scope)
        guard let registry = wl_display_get_registry(display) else { return nil }
        wl_registry_add_listener(registry, registryListener, me)
        // The globals, then each output's geometry, modes, name and done.
        for _ in 0..<2 where wl_display_roundtrip(display) >= 0 {}
        for output in reader.outputs { wl_output_destroy(output.proxy) }
        wl_registry_destroy(registry)
        return Monitor.leftToRight(reader.outputs.compactMap(\.monitor))
    }

    /// The monitors at the places sway gives its outputs (`outputs`: its IPC's answer; nil elsewhere), left to right.
    /// wlroots tells a Wayland client no output's position (wl_output's geometry says 0, 0), so every monitor was at
    /// the origin: the pointer of a viewer of a second monitor landed on the first.
    static func placed(_ monitors: [Monitor], by outputs: [SwayOutput]?) -> [Monitor] {
        guard let outputs else { return monitors }
        let places = Dictionary(outputs.map { ($0.name, $0.rect) }, uniquingKeysWith: { first, _ in first })
        return Monitor.leftToRight(
            monitors.map { monitor in
                guard let place = places[monitor.name] else { return monitor }
                var placed = monitor
                (placed.frame.x, placed.frame.y) = (place.x, place.y)
                return placed
            })
    }

    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_registry_listener(
                global: { data, registry, name, interface, version in
                    guard let interface, String(cString: interface) == "wl_output" else { return }
                    let reader = Unmanaged<OutputReader>.fromOpaque(data!).takeUnretainedValue()
                    guard let bound = wl_registry_bind(registry, name, outputInterface, min(version, 4)) else { return }
                    let proxy = OpaquePointer(bound)
                    let output = OutputReader.Output(proxy: proxy, index: reader.outputs.count)
                    reader.outputs.append(output)
                    wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(output).toOpaque())
                }, global_remove: { _, _, _ in }))
        return listener
    }()

    /// A copy of libwayland's `wl_output_interface` at a stable address (Swift imports the C constant as a value).
    nonisolated(unsafe) private static let outputInterface: UnsafeMutablePointer<wl_interface> = {
        let interface = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        interface.initialize(to: wl_output_interface)
        return interface
    }()

    private static func output(_ data: UnsafeMutableRawPointer?) -> OutputReader.Output {
        Unmanaged<OutputReader.Output>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let outputListener: UnsafeMutablePointer<wl_output_listener> = {
        let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_output_listener(
                geometry: { data, _, x, y, _, _, _, _, _, transform in
                    let output = WaylandOutputs.output(data)
                    (output.x, output.y, output.quarterTurned) = (Int(x), Int(y), transform % 2 == 1)
                },
                mode: { data, _, flags, width, height, _ in
                    guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
                    let output = WaylandOutputs.output(data)
                    (output.width, output.height) = (Int(width), Int(height))
                },
                done: { _, _ in },
                scale: { data, _, factor in WaylandOutputs.output(data).scale = Double(factor) },
                name: { data, _, name in WaylandOutputs.output(data).name = name.map { String(cString: $0) } },
                description: { _, _, _ in }))
        return listener
    }()
}

/// What the listeners collect during `WaylandOutputs.current`; used on that one thread only.
private final class OutputReader {
    final class Output {
        let proxy: OpaquePointer
        let index: Int
        var x = 0, y = 0, width = 0, height = 0
        var quarterTurned = false
        var scale = 1.0
        var name: String?

        init(proxy: OpaquePointer, index: Int) {
            self.proxy = proxy
            self.index = index
        }

        var monitor: Monitor? {
            guard width > 0, height > 0 else { return nil }
            let label = name ?? "output-\(index)"
            let (w, h) = quarterTurned ? (height, width) : (width, height)
            return Monitor(
                id: MonitorID.of(connector: label), name: label, frame: PixelRect(x: x, y: y, width: w, height: h),
                scale: scale)
        }
    }

    var outputs: [Output] = []
}
