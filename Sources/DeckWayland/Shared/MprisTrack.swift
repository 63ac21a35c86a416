import CDeckShim
import CGio
import DeckDesktop

extension MprisPlayers {
    /// What `name` plays, from one `GetAll` of its Player interface; empty when it does not answer within 2 s.
    static func track(of name: String, on bus: SessionBus) -> MediaControl.Track {
        guard
            let reply = try? bus.call(
                name, path, "org.freedesktop.DBus.Properties", "GetAll", deck_gv_string(player), timeout: 2),
            reply.isOfType("(a{sv})")
        else { return MediaControl.Track() }
        let properties = reply.child(0)
        var track = MediaControl.Track()
        // MPRIS gives times in microseconds; `Position` is an x, `mpris:length` an x or (some players) a t.
        track.position = properties.value(for: "Position")?.microseconds
        guard let metadata = properties.value(for: "Metadata"), metadata.isOfType("a{sv}") else { return track }
        track.title = metadata.value(for: "xesam:title")?.text
        track.album = metadata.value(for: "xesam:album")?.text
        track.artURL = metadata.value(for: "mpris:artUrl")?.text
        track.length = metadata.value(for: "mpris:length")?.microseconds
        if let artists = metadata.value(for: "xesam:artist"), artists.isOfType("as") {
            let names = (0..<Int(g_variant_n_children(artists.raw))).map { artists.child($0).string }
            track.artist = names.isEmpty ? nil : names.joined(separator: ", ")
        }
        return track
    }
}

extension Variant {
    /// The value under `key` in an `a{sv}` dictionary, unboxed; nil when absent.
    func value(for key: String) -> Variant? {
        g_variant_lookup_value(raw, key, nil).map { Variant(owning: $0) }
    }

    /// A string value's text; nil for another type or an empty string.
    var text: String? {
        guard isOfType("s") else { return nil }
        let text = string
        return text.isEmpty ? nil : text
    }

    /// An integer count of microseconds (`x`, `t` or `i`) in seconds; nil for another type.
    var microseconds: Double? {
        if isOfType("x") { return Double(g_variant_get_int64(raw)) / 1e6 }
        if isOfType("t") { return Double(g_variant_get_uint64(raw)) / 1e6 }
        if isOfType("i") { return Double(g_variant_get_int32(raw)) / 1e6 }
        return nil
    }
}

/// The players' change signals (PropertiesChanged of their Player interface, Seeked, a player's name coming or
/// going), subscribed once on `BusLoop`'s thread for the life of the process.
enum MprisSignals {
    /// The callback the subscriptions call and the bus connection they live on; never freed (see `follow`).
    private final class Listener: @unchecked Sendable {
        let changed: @Sendable () -> Void
        let bus: SessionBus
        init(_ changed: @escaping @Sendable () -> Void, bus: SessionBus) {
            self.changed = changed
            self.bus = bus
        }
    }

    /// Subscribes `changed` to every player's changes; false without a session bus.
    static func follow(_ changed: @escaping @Sendable () -> Void) -> Bool {
        guard let bus = try? SessionBus() else { return false }
        // passRetained and never released: the subscriptions last as long as the process, so the listener must.
        let listener = UnsafeMutableRawPointer(Unmanaged.passRetained(Listener(changed, bus: bus)).toOpaque())
        let callback: GDBusSignalCallback = { _, _, _, _, _, _, userData in
            guard let userData else { return }
            Unmanaged<Listener>.fromOpaque(userData).takeUnretainedValue().changed()
        }
        let raw = bus.raw
        BusLoop.shared.run {
            g_dbus_connection_signal_subscribe(
                raw, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", MprisPlayers.path,
                MprisPlayers.player, G_DBUS_SIGNAL_FLAGS_NONE, callback, listener, nil)
            g_dbus_connection_signal_subscribe(
                raw, nil, MprisPlayers.player, "Seeked", MprisPlayers.path, nil, G_DBUS_SIGNAL_FLAGS_NONE, callback,
                listener, nil)
            // arg0 is the name whose owner changed; the namespace flag matches every org.mpris.MediaPlayer2.* name.
            g_dbus_connection_signal_subscribe(
                raw, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
                "org.mpris.MediaPlayer2", G_DBUS_SIGNAL_FLAGS_MATCH_ARG0_NAMESPACE, callback, listener, nil)
        }
        return true
    }
}
