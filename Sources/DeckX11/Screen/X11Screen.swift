import DeckDesktop
import Dispatch

/// The X11 screen source: one display connection, used only on `queue` (Xlib is not thread-safe without
/// XInitThreads, and a serial queue is simpler than making it so).
///
/// `@unchecked Sendable`: `connection` is read and written only on `queue`.
final class X11Screen: @unchecked Sendable {
    private let displayName: String?
    private let queue = DispatchQueue(label: "touchdeck.screen")
    private var connection: XScreenConnection?

    init(displayName: String?) {
        self.displayName = displayName
    }

    func monitors() async throws -> [Monitor] {
        try await onQueue { try $0.monitors() }
    }

    func grab(_ monitor: Monitor) async throws -> ScreenImage {
        try await onQueue { try $0.grab(monitor) }
    }

    /// Runs `work` on the queue with a live connection, opening one first if needed.
    private func onQueue<T: Sendable>(_ work: @escaping @Sendable (XScreenConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work(self.liveConnection()) })
            }
        }
    }

    /// The open connection, or a new one when there is none or the server went away (it may have restarted).
    private func liveConnection() throws -> XScreenConnection {
        if connection?.isBroken == true { connection = nil }
        if connection == nil { connection = XDisplay(name: displayName).map(XScreenConnection.init) }
        guard let connection else { throw ScreenSourceError.noDisplay }
        return connection
    }
}
