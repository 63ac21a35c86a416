import CDeckShim
import DeckDesktop

/// The monitors Mutter shows, from `org.gnome.Mutter.DisplayConfig.GetCurrentState`.
enum MutterMonitors {
    static let destination = "org.gnome.Mutter.DisplayConfig"
    static let path = "/org/gnome/Mutter/DisplayConfig"

    /// Every monitor that is on, left to right; `Monitor.name` is the connector RecordMonitor takes.
    static func current(on bus: SessionBus) throws(DBusError) -> [Monitor] {
        try monitors(in: try bus.call(destination, path, destination, "GetCurrentState"))
    }

    /// The monitors of a GetCurrentState reply.
    static func monitors(in state: Variant) throws(DBusError) -> [Monitor] {
        var slots = [deck_monitor](repeating: deck_monitor(), count: 16)
        let count = deck_gv_monitors(state.raw, &slots, Int32(slots.count))
        guard count >= 0 else { throw .badReply("GetCurrentState has an unknown shape") }
        return Monitor.leftToRight(
            slots.prefix(Int(count)).map { slot in
                let connector = withUnsafeBytes(of: slot.connector) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                return Monitor(
                    id: MonitorID.of(connector: connector), name: connector,
                    frame: PixelRect(x: Int(slot.x), y: Int(slot.y), width: Int(slot.width), height: Int(slot.height)),
                    scale: slot.scale)
            })
    }

}
