import DeckKit

/// A key on the keypad tab: the `keypad` message's own key type, so the wire and the injector share one list.
public typealias KeypadKey = DeviceMessage.Keypad.Key

/// The seam that types keypad keys into the desktop (DESIGN.md#seams).
public struct KeyInjector: Sendable {
    /// Types one key (press and release).
    public var press: @Sendable (KeypadKey) async -> ActionResult

    /// Creates an injector from its one operation.
    public init(press: @escaping @Sendable (KeypadKey) async -> ActionResult) {
        self.press = press
    }

    /// Answers `result`, reporting each key to `record`.
    public static func fake(
        result: ActionResult = .ok, record: @escaping @Sendable (KeypadKey) -> Void = { _ in }
    ) -> KeyInjector {
        KeyInjector { key in
            record(key)
            return result
        }
    }

    /// Traps if called: for tests that must never type.
    public static let unimplemented = KeyInjector { _ in
        preconditionFailure("KeyInjector.press called in a test that does not expect it")
    }
}
