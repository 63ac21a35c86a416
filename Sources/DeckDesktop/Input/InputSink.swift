import DeckKit

/// The seam through which a viewer's touches reach the desktop (DESIGN.md#viewing): absolute pointer moves, buttons,
/// wheel steps and key taps. The X11 back-end is `InputSink.x11(display:)` (XTest); Wayland back-ends
/// (Mutter's RemoteDesktop, wlroots' virtual pointer, the RemoteDesktop portal) plug in as other values.
///
/// Each operation returns once the desktop has the event, so calls made one after another arrive in that
/// order. A call throws `InputSinkError` when the desktop cannot take input; the next call tries again.
public struct InputSink: Sendable {
    /// Puts the pointer on a pixel of a monitor.
    public var movePointer: @Sendable (MonitorPixel) async throws -> Void
    /// Presses (`true`) or releases (`false`) a button where the pointer is.
    public var setButton: @Sendable (PointerButton, _ pressed: Bool) async throws -> Void
    /// Turns the wheel `steps` notches (≥ 1) in one direction where the pointer is.
    public var scroll: @Sendable (ScrollDirection, _ steps: Int) async throws -> Void
    /// Presses and releases the key that types `keysym` on the current layout's base level.
    public var tapKeysym: @Sendable (_ keysym: UInt32) async throws -> Void

    /// Creates a sink from its four operations.
    public init(
        movePointer: @escaping @Sendable (MonitorPixel) async throws -> Void,
        setButton: @escaping @Sendable (PointerButton, _ pressed: Bool) async throws -> Void,
        scroll: @escaping @Sendable (ScrollDirection, _ steps: Int) async throws -> Void,
        tapKeysym: @escaping @Sendable (_ keysym: UInt32) async throws -> Void
    ) {
        self.movePointer = movePointer
        self.setButton = setButton
        self.scroll = scroll
        self.tapKeysym = tapKeysym
    }

    /// Performs one action through the matching operation.
    public func perform(_ action: InputAction) async throws {
        switch action {
        case .move(let pixel): try await movePointer(pixel)
        case .button(let button, let pressed): try await setButton(button, pressed)
        case .scroll(let direction, let steps): try await scroll(direction, steps)
        case .keysym(let keysym): try await tapKeysym(keysym)
        }
    }

    /// Performs the actions in order, stopping at the first that fails.
    public func perform(_ actions: [InputAction]) async throws {
        for action in actions { try await perform(action) }
    }

    /// Reports every call to `record` as the `InputAction` it stands for, and fails none.
    public static func fake(record: @escaping @Sendable (InputAction) -> Void) -> InputSink {
        InputSink(
            movePointer: { record(.move($0)) }, setButton: { record(.button($0, pressed: $1)) },
            scroll: { record(.scroll($0, steps: $1)) }, tapKeysym: { record(.keysym($0)) })
    }

    /// Throws `error` from every call: a desktop without this kind of input.
    public static func failing(_ error: InputSinkError) -> InputSink {
        InputSink(
            movePointer: { _ in throw error }, setButton: { _, _ in throw error }, scroll: { _, _ in throw error },
            tapKeysym: { _ in throw error })
    }

    /// Traps if called: for tests that must never inject input.
    public static let unimplemented = InputSink(
        movePointer: { _ in Self.trap() }, setButton: { _, _ in Self.trap() }, scroll: { _, _ in Self.trap() },
        tapKeysym: { _ in Self.trap() })

    private static func trap() -> Never {
        preconditionFailure("InputSink called in a test that does not expect input")
    }
}

/// One call into an `InputSink`: what `PointerDriver` returns and the fake sink records.
public enum InputAction: Equatable, Sendable {
    case move(MonitorPixel)
    case button(PointerButton, pressed: Bool)
    case scroll(ScrollDirection, steps: Int)
    case keysym(UInt32)
}

/// A pixel of one monitor in that monitor's own coordinates (0, 0 is its top-left pixel).
///
/// Monitor-relative, so a Wayland back-end can pass it on as stream coordinates (a ScreenCast stream shows
/// one monitor), while X11 adds the monitor's origin to reach the root window's coordinates.
public struct MonitorPixel: Equatable, Sendable {
    public var x: Int
    public var y: Int
    /// The monitor's rectangle on the desktop, in pixels (its origin may be negative).
    public var monitor: Rect

    public init(x: Int, y: Int, monitor: Rect) {
        self.x = x
        self.y = y
        self.monitor = monitor
    }

    /// The same pixel in desktop (X11 root window) coordinates.
    public var desktopX: Int { Int(monitor.minX) + x }
    /// The same pixel in desktop (X11 root window) coordinates.
    public var desktopY: Int { Int(monitor.minY) + y }
}

/// A mouse button.
public enum PointerButton: Sendable, CaseIterable {
    case left, middle, right
}

/// Which way the wheel turns. `up` shows what is above (the content moves down).
public enum ScrollDirection: Sendable, CaseIterable {
    case up, down, left, right
}

/// Why an `InputSink` could not take an event.
public enum InputSinkError: Error, Equatable, Sendable {
    /// The desktop's display cannot be opened (or went away).
    case noDisplay
    /// The display has no way to inject input (X11: no XTest extension).
    case noInjection
    /// No key of the current layout types this keysym.
    case noKey(keysym: UInt32)
}
