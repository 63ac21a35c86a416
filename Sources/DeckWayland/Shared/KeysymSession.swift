import DeckDesktop
import Foundation

/// A session that sends keysyms for the compositor to place on its own layout: Mutter's RemoteDesktop and the
/// RemoteDesktop portal (`NotifyKeyboardKeysym` on both). Neither can type a keysym the layout lacks, and neither
/// says so (Mutter only logs "No keycode found for keyval"; the call succeeds), so the layout is read as a Wayland
/// client (`LayoutKeysyms`) and every keysym is checked before the first is sent.
protocol KeysymSession: AnyObject {
    /// Presses or releases the key the compositor finds for `keysym` (a modifier held around another key).
    func key(_ keysym: UInt32, pressed: Bool) throws(DBusError)
    /// The keysyms the compositor's layout can type.
    var layout: LayoutKeysyms { get }
}

extension KeysymSession {
    /// Presses and releases the key the compositor finds for `keysym`.
    func tap(keysym: UInt32) throws(DBusError) {
        try key(keysym, pressed: true)
        try key(keysym, pressed: false)
    }

    /// Whether the layout has a key for `keysym` (true when the layout cannot be read: every keysym is tried).
    func canType(_ keysym: UInt32) -> Bool { layout.contains(keysym) }

    /// Types the strokes in order, each key's modifiers pressed before it and released after it. A text with a
    /// character the layout lacks fails as a whole, naming that character, and types nothing; a failed call
    /// throws (the session is then no use).
    func type(_ strokes: [WaylandStroke]) throws(DBusError) -> ActionResult {
        if let missing = strokes.first(where: { !($0.modifiers + [$0.keysym]).allSatisfy(canType) }) {
            return .failed(WaylandStrokes.cannotType(missing))
        }
        for stroke in strokes {
            for modifier in stroke.modifiers { try key(modifier, pressed: true) }
            // Released even when the key failed: a modifier left down would change every later key.
            defer { for modifier in stroke.modifiers.reversed() { try? key(modifier, pressed: false) } }
            try tap(keysym: stroke.keysym)
        }
        return .ok
    }
}

/// The keysyms of the compositor's current layout, read once with `WaylandKeymap` on first use. A session's
/// virtual keyboard appears to clients a moment after it starts (a headless compositor's seat has none before),
/// so a seat without a keyboard is asked again (20 times, 25 ms apart, and again at the next key); no display
/// is not.
///
/// `@unchecked Sendable`: the reading is guarded by `lock`.
final class LayoutKeysyms: @unchecked Sendable {
    private let lock = NSLock()
    /// nil: not read yet; .some(nil): unreadable (every keysym is tried).
    private var keysyms: Set<UInt32>??

    func contains(_ keysym: UInt32) -> Bool {
        lock.withLock {
            if keysyms == nil {
                var read = WaylandKeymap.Reading.noKeyboard
                for attempt in 0..<20 where read == .noKeyboard {
                    if attempt > 0 { usleep(25_000) }
                    read = WaylandKeymap.read()
                }
                switch read {
                case .keysyms(let found): keysyms = .some(found)
                case .noDisplay: keysyms = .some(nil)
                case .noKeyboard: return true  // asked again next time: the keyboard may come with the first key
                }
            }
            guard let known = keysyms ?? nil else { return true }
            return known.contains(keysym)
        }
    }
}

/// A remote-desktop session that also takes the pointer, in its stream's pixels: Mutter's RemoteDesktop and the
/// RemoteDesktop portal, whose calls line up one for one.
protocol RemoteInputSession: KeysymSession, SendableMetatype {
    /// Puts the pointer at (`x`, `y`) of the stream (the monitor's own pixels).
    func move(x: Double, y: Double) throws(DBusError)
    /// Presses or releases an evdev button (BTN_LEFT 0x110…).
    func button(_ code: Int32, pressed: Bool) throws(DBusError)
    /// Turns the wheel `steps` notches on `axis` (0 vertical, 1 horizontal; positive: down or right).
    func axis(_ axis: UInt32, steps: Int32) throws(DBusError)
    /// When a press may follow the last motion (one per session: a new session's pointer is new to its clients).
    var pointerSettle: PointerSettle { get }
}

enum RemoteInput {
    /// `InputSink`'s events as calls on a remote-desktop session. `inject(pointer, keysym, body)` runs `body` on the
    /// back-end's session for a pointer event (`pointer`) or a key tap (`keysym`), and throws what failed.
    static func sink<Session: RemoteInputSession>(
        _ inject:
            @escaping @Sendable (
                _ pointer: Bool, _ keysym: UInt32?, _ body: @escaping @Sendable (Session) throws(DBusError) -> Void
            ) async throws -> Void
    ) -> InputSink {
        InputSink(
            movePointer: { pixel in
                try await inject(true, nil) { session throws(DBusError) in
                    try session.move(x: Double(pixel.x), y: Double(pixel.y))
                    session.pointerSettle.moved(x: Double(pixel.x), y: Double(pixel.y))
                }
            },
            setButton: { button, pressed in
                try await inject(true, nil) { session throws(DBusError) in
                    if pressed { session.pointerSettle.holdBeforePress() }
                    try session.button(WaylandInput.evdevCode(button), pressed: pressed)
                }
            },
            scroll: { direction, steps in
                let (axis, sign) = WaylandInput.axis(direction)
                try await inject(true, nil) { session throws(DBusError) in
                    try session.axis(axis, steps: sign * Int32(clamping: steps))
                }
            },
            tapKeysym: { keysym in
                try await inject(false, keysym) { session throws(DBusError) in
                    guard session.canType(keysym) else { throw WaylandInput.noKeycode }
                    try session.tap(keysym: keysym)
                }
            })
    }
}
