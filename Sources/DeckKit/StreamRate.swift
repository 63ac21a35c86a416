/// Frame rate and bitrate for screen streaming.
public enum StreamRate {
    /// The rate older devices get (a `startScreen` without `fps`).
    public static let low = 30
    /// The viewer's default.
    public static let high = 60
    /// Rates from here up become `high`; below it, `low`.
    public static let highFrom = 45
    /// Bits per pixel per frame: generous, because screens are full of small text.
    public static let bitsPerPixel = 0.2
    /// The ceiling, so the Wi-Fi keeps up (seed part 8 raised it from 25 to 40 Mbit/s for 60 fps).
    public static let maxBitrate = 40_000_000

    /// Only 30 and 60 are offered; any other request goes to the nearer of the two (45 and up → 60).
    public static func normalize(fps: Int) -> Int {
        fps >= highFrom ? high : low
    }

    /// The bitrate budget in bit/s: width × height × fps × 0.2, capped at 40 Mbit/s.
    ///
    /// It caps a quality target rather than being the target itself, so a still screen stays sharp
    /// without spending the whole budget.
    public static func bitrate(width: Int, height: Int, fps: Int) -> Int {
        let budget = Double(max(0, width)) * Double(max(0, height)) * Double(max(0, fps)) * bitsPerPixel
        // Capped while still a Double: a budget beyond Int.max would trap in the conversion.
        return Int(min(budget, Double(maxBitrate)))
    }
}
