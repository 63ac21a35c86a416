import CX11
import DeckDesktop
import Synchronization

/// Catches X protocol errors instead of letting Xlib's default handler end the process.
///
/// Xlib's default error handler prints and calls exit(): one XShmAttach refused by a remote X server, or one
/// grab of a rectangle that a monitor change made invalid, would take the whole host down. The handler is
/// process-wide (Xlib has no per-display one), so it also covers the keypad's connection, which then gets a
/// failed request instead of an exit. Errors are noted by code; the screen queue clears the note before a
/// request and reads it after a round trip. An error from another thread's display could be mistaken for
/// ours in between: the worst that does is make a grab fall back to XGetImage or fail once.
///
/// A lost connection would go the same way; `XDisplay` (DeckX11) keeps that one off, for every display.
enum XErrorTrap {
    private static let installed: Void = {
        _ = XSetErrorHandler(noteXError)
    }()

    /// Puts the handler in place (once per process).
    static func install() { _ = installed }

    /// Forgets any error noted so far.
    static func clear() { lastError.store(0, ordering: .relaxed) }

    /// The code of the last error noted since `clear()`, 0 for none.
    static var last: UInt8 { lastError.load(ordering: .relaxed) }
}

private let lastError = Atomic<UInt8>(0)

/// Xlib's error handler: notes the code and returns, so the call that caused it fails instead of the process.
private func noteXError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    lastError.store(event?.pointee.error_code ?? 1, ordering: .relaxed)
    return 0
}
