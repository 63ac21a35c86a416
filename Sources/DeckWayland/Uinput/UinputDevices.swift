import CDeckShim
import DeckDesktop
import Foundation

/// Why the uinput back-end could not deliver an event.
enum UinputError: Error, Equatable {
    /// The device could not be created at the node (errno: EACCES without the udev rule, ENOENT without uinput…).
    case cannotCreate(path: String, errno: Int32)
    /// A write to a device failed (the device is closed; the next event creates a new one).
    case writeFailed(errno: Int32)
    /// No outputs to size the absolute pointer by (no Wayland display).
    case noDesktop
    /// Neither the compositor nor the system's XKB data gave a keymap to type with.
    case noKeymap

    /// A short reason for the device's user.
    var reason: String {
        switch self {
        case .cannotCreate(let path, let code):
            "cannot create an input device at \(path): \(String(cString: strerror(code)))"
        case .writeFailed(let code): "the input device failed: \(String(cString: strerror(code)))"
        case .noDesktop: "no display"
        case .noKeymap: "no keyboard layout to type with"
        }
    }

    /// The same failure for an `InputSink` caller.
    var sinkError: InputSinkError { self == .noDesktop ? .noDisplay : .noInjection }
}

/// How the back-end makes its two devices: at the kernel's uinput node, or (in tests) as any fd that takes
/// writes. Each returns an open fd the back-end owns and closes; closing a uinput fd destroys its device.
struct UinputDevices: Sendable {
    /// The absolute pointer, its axes `width` × `height` pixels.
    var makePointer: @Sendable (_ width: Int32, _ height: Int32) throws(UinputError) -> Int32
    /// The keyboard.
    var makeKeyboard: @Sendable () throws(UinputError) -> Int32

    static let pointerName = "TouchDeck pointer"
    static let keyboardName = "TouchDeck keyboard"

    /// Devices created through the uinput node at `path`.
    ///
    /// What makes the compositor treat the pointer as a mouse that jumps (like QEMU's usb-tablet), not a
    /// touchscreen or a tablet: udev's input_id builtin tags a device with ABS_X/ABS_Y and BTN_LEFT, but no
    /// BTN_TOUCH, no BTN_TOOL_PEN/BTN_STYLUS, no BTN_TOOL_FINGER and no INPUT_PROP_DIRECT, as ID_INPUT_MOUSE, and
    /// libinput gives such a device the pointer capability with absolute motion. No property bit is set
    /// (INPUT_PROP_POINTER is for touchpads). The keyboard has the codes 1…248, which covers the first 32 keys
    /// input_id wants to see for ID_INPUT_KEYBOARD.
    static func kernel(path: String) -> UinputDevices {
        UinputDevices(
            makePointer: { width, height throws(UinputError) in
                try check(deck_uinput_create_pointer(path, pointerName, width, height), path)
            },
            makeKeyboard: { () throws(UinputError) in try check(deck_uinput_create_keyboard(path, keyboardName), path) }
        )
    }

    private static func check(_ result: Int32, _ path: String) throws(UinputError) -> Int32 {
        guard result >= 0 else { throw .cannotCreate(path: path, errno: -result) }
        return result
    }
}

/// The waits of the back-end, in microseconds and nanoseconds; tests use `immediate`.
struct UinputTiming: Sendable {
    /// After creating a device: the compositor opens new devices asynchronously (udev, then libinput), and the
    /// kernel drops events sent before anyone has the node open.
    var settleMicroseconds: UInt32
    /// Between two keys typed: evdev buffers 64 events per reader of a keyboard (8 to 16 characters), and a
    /// busy compositor that reads late would see SYN_DROPPED and lose keys.
    var paceMicroseconds: UInt32
    /// How long the desktop's size and the keymap are trusted before they are read again.
    var refreshNanoseconds: UInt64

    static let live = UinputTiming(
        settleMicroseconds: 250_000, paceMicroseconds: 2_000, refreshNanoseconds: 2_000_000_000)
    static let immediate = UinputTiming(settleMicroseconds: 0, paceMicroseconds: 0, refreshNanoseconds: 0)
}
