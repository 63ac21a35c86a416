import Foundation

/// A file size for people, the way the web client writes it (`formatSize` in `Web/core/recording.js`):
/// "900 B", "12.3 KB", "4.5 MB", "1.2 GB", in powers of 1000 as share sheets and Photos count, so the CLI
/// and a device say the same size for the same file.
enum ByteSize {
    static func text(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = -1
        // Divided step by step, as the web client does, so both reach the same Double.
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let number = value >= 100 ? String(Int(value.rounded(.toNearestOrAwayFromZero))) : oneDecimal(value)
        return "\(number) \(units[unit])"
    }

    /// `value.toFixed(1)` as JavaScript does it: the nearest tenth of the exact value, and of two equally
    /// near the larger (printf's `%.1f` would take the even one: 1.25 → "1.2", where JavaScript says "1.3").
    static func oneDecimal(_ value: Double) -> String {
        let tenths = value * 10
        let exact = (-tenths).addingProduct(value, 10) == 0
        if exact, tenths - tenths.rounded(.down) == 0.5 { return String(format: "%.1f", tenths.rounded(.up) / 10) }
        return String(format: "%.1f", value)
    }
}
