import DeckDesktop
import Foundation

/// Reads the X resources a screen source cares about from the root window's RESOURCE_MANAGER text.
enum X11Resources {
    /// The desktop's scale: `Xft.dpi` / 96 (what GTK and Qt read), 1 when it is absent or not a number.
    /// X11 has one such setting for all monitors.
    static func scale(in resources: String?) -> Double {
        guard let resources else { return 1 }
        for line in resources.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi" else { continue }
            guard let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), dpi > 0 else { return 1 }
            return dpi / 96
        }
        return 1
    }
}
