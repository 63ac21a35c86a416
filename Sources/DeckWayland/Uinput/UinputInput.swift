import DeckDesktop
import Dispatch
import Foundation

/// Pointer, keypad and typing through the kernel's `/dev/uinput` (DESIGN.md#viewing), the back-end for a Wayland
/// desktop that offers neither wlroots' virtual devices nor the RemoteDesktop portal. It makes two devices, as a
/// virtual machine's usb-tablet and keyboard are: "TouchDeck pointer", an absolute pointer over the whole desktop, and
/// "TouchDeck keyboard". They are created on first use and again after a write failed.
///
/// Pixels map 1:1 onto the pointer's axes: the axes span the bounding box of the compositor's outputs, and
/// compositors (libinput's transformed coordinates) spread an absolute device over that whole layout. When the
/// layout's size changes the pointer is made again with the new range.
///
/// The compositor applies its keymap (the user's layout) to the keyboard, so text is typed with the keys of
/// that keymap, read as a Wayland client (`UinputKeymap`); a character no key types fails the whole text.
///
/// `@unchecked Sendable`: the fds, the layout and the keymap are touched only on `queue`, which also keeps events
/// in the order they were asked for.
public final class UinputInput: @unchecked Sendable {
    private let queue = DispatchQueue(label: "touchdeck.uinput-input")
    private let devices: UinputDevices
    private let readDesktop: @Sendable () -> PixelRect?
    private let readKeymap: @Sendable () -> UinputKeymap?
    let timing: UinputTiming
    private var pointer: (fd: Int32, desktop: PixelRect, checked: UInt64)?
    private(set) var keyboard: Int32?
    private var keymap: (map: UinputKeymap, read: UInt64)?

    /// Input through the uinput node at `path`, sized by and typing with the compositor at `display` (nil:
    /// `$WAYLAND_DISPLAY`).
    public convenience init(path: String = "/dev/uinput", display: String? = nil) {
        self.init(
            devices: .kernel(path: path), desktop: { Self.desktop(WaylandOutputs.current(display: display)) },
            keymap: { UinputKeymap.current(display: display) }, timing: .live)
    }

    /// The seam for tests: where the devices come from, the desktop's box and the keymap.
    init(
        devices: UinputDevices, desktop: @escaping @Sendable () -> PixelRect?,
        keymap: @escaping @Sendable () -> UinputKeymap?, timing: UinputTiming
    ) {
        self.devices = devices
        readDesktop = desktop
        readKeymap = keymap
        self.timing = timing
    }

    deinit {
        if let pointer { close(pointer.fd) }
        if let keyboard { close(keyboard) }
    }

    /// Whether the uinput node exists and this process may write to it (the udev rule in the README).
    public static func isAvailable(path: String = "/dev/uinput") -> Bool { access(path, W_OK) == 0 }

    public var input: InputSink {
        InputSink(
            movePointer: { pixel in
                try await self.pointerEvents { desktop in
                    UinputEvents.move(
                        x: Int32(clamping: min(max(pixel.desktopX - desktop.x, 0), desktop.width - 1)),
                        y: Int32(clamping: min(max(pixel.desktopY - desktop.y, 0), desktop.height - 1)))
                }
            },
            setButton: { button, pressed in
                try await self.pointerEvents { _ in UinputEvents.button(button, pressed: pressed) }
            },
            scroll: { direction, steps in
                try await self.pointerEvents { _ in UinputEvents.scroll(direction, steps: steps) }
            },
            tapKeysym: { keysym in
                switch await self.strike([WaylandStroke(keysym: keysym)]) {
                case .typed: return
                case .missing: throw InputSinkError.noKey(keysym: keysym)
                case .failed(let error): throw error.sinkError
                }
            })
    }

    /// The bounding box of the outputs, which an absolute device spans; nil without any.
    static func desktop(_ monitors: [Monitor]?) -> PixelRect? {
        guard let frames = monitors?.map(\.frame), !frames.isEmpty else { return nil }
        let (left, top) = (frames.map(\.x).min() ?? 0, frames.map(\.y).min() ?? 0)
        let (right, bottom) = (frames.map { $0.x + $0.width }.max() ?? 0, frames.map { $0.y + $0.height }.max() ?? 0)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Creates both devices now (the kernel tests open their event nodes before sending anything).
    func open() async throws(UinputError) {
        let failure: UinputError? = await onQueue {
            do throws(UinputError) {
                _ = try self.pointerDevice()
                _ = try self.keyboardDevice()
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Writes the events `batch` makes for the pointer's current desktop box.
    private func pointerEvents(_ batch: @escaping @Sendable (PixelRect) -> [UinputEvent]) async throws {
        let failure: UinputError? = await onQueue {
            do throws(UinputError) {
                let (fd, desktop) = try self.pointerDevice()
                try self.send(batch(desktop), to: fd)
                return nil
            } catch { return error }
        }
        if let failure { throw failure.sinkError }
    }

    /// Runs `body` on the queue.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: body()) } }
    }

    /// On the queue: the pointer, made (again) when there is none or the desktop's size changed since.
    private func pointerDevice() throws(UinputError) -> (fd: Int32, desktop: PixelRect) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let pointer, now - pointer.checked < timing.refreshNanoseconds { return (pointer.fd, pointer.desktop) }
        // A failed read keeps the pointer there is: a display that hiccups should not stop the pointer.
        guard let desktop = readDesktop() ?? pointer?.desktop else { throw .noDesktop }
        if let pointer, pointer.desktop.width == desktop.width, pointer.desktop.height == desktop.height {
            self.pointer = (pointer.fd, desktop, now)
            return (pointer.fd, desktop)
        }
        closePointer()
        let fd = try devices.makePointer(Int32(clamping: desktop.width), Int32(clamping: desktop.height))
        pointer = (fd, desktop, now)
        if timing.settleMicroseconds > 0 { usleep(timing.settleMicroseconds) }
        return (fd, desktop)
    }

    /// On the queue: the keyboard, made when there is none.
    func keyboardDevice() throws(UinputError) -> Int32 {
        if let keyboard { return keyboard }
        let fd = try devices.makeKeyboard()
        keyboard = fd
        if timing.settleMicroseconds > 0 { usleep(timing.settleMicroseconds) }
        return fd
    }

    /// On the queue: the keymap to type with, read again once it is older than the refresh interval.
    func currentKeymap() -> UinputKeymap? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let keymap, now - keymap.read < timing.refreshNanoseconds { return keymap.map }
        guard let map = readKeymap() else { return keymap?.map }
        keymap = (map, now)
        return map
    }

    /// On the queue: writes a batch; a failure closes the device it went to (the next event makes a new one).
    func send(_ events: [UinputEvent], to fd: Int32) throws(UinputError) {
        let error = UinputEvents.send(events, to: fd)
        guard error != 0 else { return }
        if fd == pointer?.fd { closePointer() }
        if fd == keyboard { closeKeyboard() }
        throw .writeFailed(errno: error)
    }

    private func closePointer() {
        if let pointer { close(pointer.fd) }
        pointer = nil
    }

    /// Closing destroys the device, and the kernel releases whatever keys it still held.
    private func closeKeyboard() {
        if let keyboard { close(keyboard) }
        keyboard = nil
    }
}
