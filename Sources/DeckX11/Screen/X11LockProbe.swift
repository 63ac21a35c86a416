import DeckDesktop
import Dispatch

/// The X11 lock probe: one display connection, used only on `queue` (Xlib is not thread-safe without
/// XInitThreads), so a slow server holds up this queue and never the caller's thread pool.
///
/// `@unchecked Sendable`: `connection` is read and written only on `queue`.
final class X11LockProbe: @unchecked Sendable {
    private let displayName: String?
    private let queue = DispatchQueue(label: "touchdeck.lock.x11")
    private var connection: XScreenSaverConnection?

    init(displayName: String?) {
        self.displayName = displayName
    }

    func isLocked() async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.screenSaverIsOn()) }
        }
    }

    /// Asks the open connection, or a new one when there is none; a connection that broke during the question
    /// is dropped at once, so the next question opens the display again (the server may have restarted).
    private func screenSaverIsOn() -> Bool {
        if connection == nil { connection = XDisplay(name: displayName).map(XScreenSaverConnection.init) }
        guard let connection else { return false }
        let isOn = connection.screenSaverIsOn()
        if connection.isBroken { self.connection = nil }
        return isOn
    }
}
