import CDeckShim
import DeckDesktop
import Glibc

/// One evdev event as a uinput device is written it: `struct input_event` without the time, which the kernel
/// stamps itself when it takes the event.
struct UinputEvent: Equatable, Sendable, CustomStringConvertible {
    var type: UInt16
    var code: UInt16
    var value: Int32

    init(_ type: Int32, _ code: Int32, _ value: Int32) {
        self.type = UInt16(type)
        self.code = UInt16(code)
        self.value = value
    }

    /// The end of a batch: readers (libinput, evdev clients) act on what came before it as one frame.
    static let report = UinputEvent(EV_SYN, SYN_REPORT, 0)

    var description: String { "(\(type), \(code), \(value))" }
}

/// The event batches of the two devices (linux/input-event-codes.h); every batch ends with SYN_REPORT.
enum UinputEvents {
    /// Where the absolute pointer is: both axes in one frame.
    static func move(x: Int32, y: Int32) -> [UinputEvent] {
        [UinputEvent(EV_ABS, ABS_X, x), UinputEvent(EV_ABS, ABS_Y, y), .report]
    }

    /// A button going down or up.
    static func button(_ button: PointerButton, pressed: Bool) -> [UinputEvent] {
        [UinputEvent(EV_KEY, WaylandInput.evdevCode(button), pressed ? 1 : 0), .report]
    }

    /// `steps` wheel notches in one frame, each as the classic step and as 120 hi-res units (kernel ≥ 5.0;
    /// libinput ≥ 1.19 reads the hi-res axis, older readers the classic one). REL_WHEEL counts up as positive,
    /// REL_HWHEEL right as positive.
    static func scroll(_ direction: ScrollDirection, steps: Int) -> [UinputEvent] {
        let (axis, sign) = WaylandInput.axis(direction)
        let notches = Int32(clamping: steps) * (axis == 0 ? -sign : sign)
        let (classic, hiRes) = axis == 0 ? (REL_WHEEL, REL_WHEEL_HI_RES) : (REL_HWHEEL, REL_HWHEEL_HI_RES)
        return [UinputEvent(EV_REL, classic, notches), UinputEvent(EV_REL, hiRes, notches &* 120), .report]
    }

    /// Keys pressed in order, then released in reverse order, one frame per key as a real keyboard sends them.
    static func keys(_ codes: [UInt16], pressed: Bool) -> [UinputEvent] {
        (pressed ? codes : codes.reversed()).flatMap { code in
            [UinputEvent(EV_KEY, Int32(code), pressed ? 1 : 0), .report]
        }
    }

    /// Writes the batch in one `write` (uinput takes any number of whole events); 0, or the errno of a failure.
    static func send(_ events: [UinputEvent], to fd: Int32) -> Int32 {
        let records = events.map { event in
            input_event(time: timeval(), type: event.type, code: event.code, value: event.value)
        }
        let size = records.count * MemoryLayout<input_event>.stride
        var written = -1
        repeat {
            written = records.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        if written < 0 { return errno }
        return written == size ? 0 : EIO
    }
}
