/// Monitor ids on Wayland, where a monitor is known by its connector (Mutter's DisplayConfig, the outputs a
/// portal lists).
enum MonitorID {
    /// A monitor's id: FNV-1a of its connector name, kept to 31 bits so every client reads it as a plain integer.
    /// Stable while the connector exists, the way X11's monitor name atom is.
    static func of(connector: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in connector.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash & 0x7fff_ffff)
    }
}
