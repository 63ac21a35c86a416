import DeckKit

/// What `pressKey` presses: a named key or a character's key, with modifiers held around it.
public typealias SpecialKey = KeyChord

/// The seam through which typed text and the keyboard row's keys reach the desktop (DESIGN.md#seams). The X11
/// back-end is `LiveKeyboard`'s (XTest with spare keycodes bound to the keysyms a text needs); Wayland
/// back-ends (Mutter's RemoteDesktop keysyms, wlroots' virtual keyboard) plug in as other values.
///
/// Each operation returns once the desktop has every key it sent, so calls made one after another land in
/// that order (Return after the text).
public struct TypingSink: Sendable {
    /// Types the text as characters (the caller has cleaned it: no line breaks or tabs).
    public var typeText: @Sendable (String) async -> ActionResult
    /// Presses and releases one key with its modifiers (released even when the key failed).
    public var pressKey: @Sendable (SpecialKey) async -> ActionResult
    /// Holds a chord (`down`: its modifiers, then its key, go down and stay down) or lets it go (`down` false: what
    /// the same chord's hold pressed comes up, in reverse; nothing held is `.ok`). A hotkey key with "hold while
    /// pressed" (PROTOCOL §6). A back-end that cannot hold keys answers `cannotHold`.
    public var holdKey: @Sendable (SpecialKey, _ down: Bool) async -> ActionResult = { _, _ in
        .failed(TypingSink.cannotHold)
    }

    /// Why a desktop whose back-end has no way to hold a key refuses a hold.
    public static let cannotHold = "this desktop cannot hold keys"

    /// Creates a sink from its two operations.
    public init(
        typeText: @escaping @Sendable (String) async -> ActionResult,
        pressKey: @escaping @Sendable (SpecialKey) async -> ActionResult
    ) {
        self.typeText = typeText
        self.pressKey = pressKey
    }

    /// What a fake sink was asked to do, in order.
    public enum Event: Equatable, Sendable {
        case text(String)
        case key(SpecialKey)
        /// `holdKey`: the chord went down (true) or came up (false).
        case hold(SpecialKey, down: Bool)
    }

    /// Reports every call to `record` and answers `result`.
    public static func fake(
        result: ActionResult = .ok, record: @escaping @Sendable (Event) -> Void = { _ in }
    ) -> TypingSink {
        var sink = TypingSink(
            typeText: {
                record(.text($0))
                return result
            },
            pressKey: {
                record(.key($0))
                return result
            })
        sink.holdKey = { chord, down in
            record(.hold(chord, down: down))
            return result
        }
        return sink
    }

    /// Answers every call with `.failed(reason)`: a desktop the host cannot type into (yet).
    public static func unavailable(_ reason: String) -> TypingSink {
        var sink = TypingSink(typeText: { _ in .failed(reason) }, pressKey: { _ in .failed(reason) })
        sink.holdKey = { _, _ in .failed(reason) }
        return sink
    }

    /// Traps if called: for tests that must never type.
    public static let unimplemented = TypingSink(
        typeText: { _ in preconditionFailure("TypingSink.typeText called in a test that does not expect it") },
        pressKey: { _ in preconditionFailure("TypingSink.pressKey called in a test that does not expect it") })
}
