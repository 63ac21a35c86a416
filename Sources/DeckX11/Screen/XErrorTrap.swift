import CX11
import DeckDesktop
import Synchronization

/// Catches X protocol errors instead of letting Xlib's default handler end the process, and notes each one for
/// the display it came on.
///
/// Xlib's default error handler prints and calls exit(): one XShmAttach refused by a remote X server, or one
/// grab of a rectangle that a monitor change made invalid, would take the whole host down. The handler is
/// process-wide (Xlib has no per-display one), so it covers every connection the host opens (capture, keypad,
/// clipboard, lock probe). Errors are noted per display: the capture clears its display's note before a
/// request and reads it after the round trip, and an error on another connection meanwhile (the clipboard
/// writing to a requestor window that has just gone, a BadWindow) is not taken for the grab's own, which
/// would end a viewer's capture.
///
/// A lost connection would go the same way; `XDisplay` (DeckX11) keeps that one off, for every display.
enum XErrorTrap {
    private static let installed: Void = {
        _ = XSetErrorHandler(noteXError)
    }()

    /// Puts the handler in place (once per process).
    static func install() { _ = installed }

    /// Forgets any error noted so far on `display`.
    static func clear(_ display: OpaquePointer) { _ = noted.withLock { $0.removeValue(forKey: key(display)) } }

    /// The code of the last error noted on `display` since `clear(display)`, 0 for none.
    static func last(_ display: OpaquePointer) -> UInt8 { noted.withLock { $0[key(display)] ?? 0 } }

    fileprivate static func note(_ code: UInt8, on display: OpaquePointer) {
        noted.withLock { $0[key(display)] = code }
    }

    private static func key(_ display: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: display)) }
}

/// The last error code per display (by its address); an entry goes when the display is cleared or closed
/// (`XDisplay.deinit`), so the table holds at most one per open display.
private let noted = Mutex<[UInt: UInt8]>([:])

/// Xlib's error handler: notes the code for its display and returns, so the call that caused it fails instead of
/// the process.
private func noteXError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    guard let display else { return 0 }
    XErrorTrap.note(event?.pointee.error_code ?? 1, on: display)
    return 0
}
