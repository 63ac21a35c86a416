import CX11
import DeckDesktop
import Dispatch

/// The X11 back-end of `InputSink`: XTest on one display connection, opened on first use and reopened
/// after the display went away.
///
/// `@unchecked Sendable`: the connection is touched only on `queue` (Xlib is not thread-safe without
/// XInitThreads, and one serial queue also keeps the events in the order they were asked for).
final class X11Input: @unchecked Sendable {
    private let displayName: String?
    private let queue = DispatchQueue(label: "touchdeck.input")
    private var connection: XInputConnection?

    init(displayName: String?) {
        self.displayName = displayName
    }

    /// Core pointer buttons: 1 left, 2 middle, 3 right.
    static func buttonNumber(_ button: PointerButton) -> UInt32 {
        switch button {
        case .left: 1
        case .middle: 2
        case .right: 3
        }
    }

    /// X has no wheel events: a notch is a press and release of button 4 (up), 5 (down), 6 (left) or 7 (right).
    static func wheelButton(_ direction: ScrollDirection) -> UInt32 {
        switch direction {
        case .up: 4
        case .down: 5
        case .left: 6
        case .right: 7
        }
    }

    func move(_ pixel: MonitorPixel) async throws {
        try await run { connection in
            connection.move(x: pixel.desktopX, y: pixel.desktopY)
            return nil
        }
    }

    func setButton(_ button: PointerButton, pressed: Bool) async throws {
        try await run { connection in
            connection.button(Self.buttonNumber(button), pressed: pressed)
            return nil
        }
    }

    func scroll(_ direction: ScrollDirection, steps: Int) async throws {
        try await run { connection in
            for _ in 0..<max(0, steps) {
                connection.button(Self.wheelButton(direction), pressed: true)
                connection.button(Self.wheelButton(direction), pressed: false)
            }
            return nil
        }
    }

    func tapKeysym(_ keysym: UInt32) async throws {
        try await run { connection in
            guard let keycode = connection.baseKeycode(for: keysym) else { return .noKey(keysym: keysym) }
            connection.tap(keycode)
            return nil
        }
    }

    /// Runs `body` on the queue with a working connection, then syncs; `body` returns its own failure, if any.
    private func run(_ body: @escaping @Sendable (XInputConnection) -> InputSinkError?) async throws {
        let failure: InputSinkError? = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.runNow(body)) }
        }
        if let failure { throw failure }
    }

    private func runNow(_ body: (XInputConnection) -> InputSinkError?) -> InputSinkError? {
        if connection?.isBroken == true { connection = nil }
        if connection == nil { connection = XDisplay(name: displayName).map(XInputConnection.init) }
        guard let connection else { return .noDisplay }
        guard connection.hasXTest else { return .noInjection }
        if let failure = body(connection) { return failure }
        connection.sync()
        return connection.isBroken ? .noDisplay : nil
    }
}

extension InputSink {
    /// Injects through XTest on `display` (nil: `$DISPLAY` of the host process). Positions are monitor
    /// pixels plus the monitor's origin on the root window. Without a display every call throws `noDisplay`,
    /// and the next call tries to open it again.
    public static func x11(display: String? = nil) -> InputSink {
        let input = X11Input(displayName: display)
        return InputSink(
            movePointer: { try await input.move($0) }, setButton: { try await input.setButton($0, pressed: $1) },
            scroll: { try await input.scroll($0, steps: $1) }, tapKeysym: { try await input.tapKeysym($0) })
    }
}
