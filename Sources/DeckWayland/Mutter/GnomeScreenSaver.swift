import DeckDesktop
import Dispatch

extension LockProbe {
    /// GNOME's screen shield through `org.gnome.ScreenSaver.GetActive` on the session bus (GNOME Shell owns the
    /// name); no bus or no such service → not locked, like the other probes. Asked on a queue of its own.
    public static func gnomeScreenSaver() -> LockProbe {
        let queue = DispatchQueue(label: "touchdeck.gnome-lock")
        return LockProbe(name: "org.gnome.ScreenSaver") {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: GnomeScreenSaver.isActive()) }
            }
        }
    }
}

enum GnomeScreenSaver {
    static let name = "org.gnome.ScreenSaver"

    /// Whether the shield is up; false when the service does not answer (within 2 s).
    static func isActive() -> Bool {
        guard let bus = try? SessionBus(),
            let reply = try? bus.call(name, "/org/gnome/ScreenSaver", name, "GetActive", timeout: 2),
            reply.isOfType("(b)")
        else { return false }
        return reply.child(0).boolean
    }
}
