import CWaylandProtocols
import DeckDesktop
import DeckKit
import Dispatch
import Foundation

/// Pointer, keypad and typing on wlroots compositors (sway, Hyprland, river…) through `zwlr_virtual_pointer_v1` and
/// `zwp_virtual_keyboard_v1` (DESIGN.md#viewing), on a Wayland connection of its own opened on first use and again
/// after it broke. Text is typed with `VirtualKeymap`: every keysym gets a key of its own, so any character arrives.
///
/// `@unchecked Sendable`: the connection and the keymap are touched only on `queue`, which also keeps events in
/// the order they were asked for.
public final class WlrInput: @unchecked Sendable {
    private let queue = DispatchQueue(label: "touchdeck.wlr-input")
    private let displayName: String?
    private var handle: OpaquePointer?
    private var keymap = VirtualKeymap()
    /// The output layout's box in layout pixels (a scaled output counts its size divided by its scale), read when
    /// the connection opens and at every viewing's start (Extend adds an output): absolute motion is relative to it.
    private var layout = (x: 0, y: 0, width: UInt32(0), height: UInt32(0))
    /// Each output's place in layout pixels, from sway's IPC with the layout (empty elsewhere).
    private var places: [PixelRect] = []
    private let started = DispatchTime.now()

    /// Input into the compositor at `display` (nil: `$WAYLAND_DISPLAY`).
    public init(display: String? = nil) { displayName = display }

    deinit { if let handle { deck_wlr_input_close(handle) } }

    /// Opens the connection and its devices now, in the background, if they are not open: called when a viewing
    /// starts, so the compositor and the clients have the new pointer before the viewer's first tap (a client
    /// that learns of a pointer only when the tap creates it misses that tap's press).
    public func prepare() {
        queue.async { if self.open() != nil { self.readLayout() } }
    }

    /// Whether the compositor offers both virtual devices (and a seat) now.
    public static func isAvailable(display: String? = nil) -> Bool {
        var missing: Int32 = 0
        guard let handle = deck_wlr_input_open(display, &missing) else { return false }
        deck_wlr_input_close(handle)
        return missing == 0
    }

    public var input: InputSink {
        InputSink(
            movePointer: { pixel in
                try await self.run { handle, this in
                    let point = Self.layoutPoint(pixel, places: this.places)
                    return deck_wlr_pointer_motion_absolute(
                        handle, this.now, UInt32(clamping: point.x - this.layout.x),
                        UInt32(clamping: point.y - this.layout.y), max(1, this.layout.width),
                        max(1, this.layout.height))
                }
            },
            setButton: { button, pressed in
                try await self.run { handle, this in
                    deck_wlr_pointer_button(handle, this.now, UInt32(WaylandInput.evdevCode(button)), pressed ? 1 : 0)
                }
            },
            scroll: { direction, steps in
                let (axis, sign) = WaylandInput.axis(direction)
                try await self.run { handle, this in
                    deck_wlr_pointer_wheel(handle, this.now, axis, sign * Int32(clamping: steps))
                }
            },
            tapKeysym: { keysym in
                if case .failed = await self.type([WaylandStroke(keysym: keysym)]) { throw InputSinkError.noDisplay }
            })
    }

    /// Keypad keys: any keysym can be typed, so only a missing compositor fails.
    public var keypad: KeyInjector {
        WaylandStrokes.keypad { await self.type($0) }
    }

    /// Text and the keyboard row's keys.
    public var typing: TypingSink {
        WaylandStrokes.typing { await self.type($0) }
    }

    /// Milliseconds since this object was made: the protocol's timestamps need only one clock per device.
    private var now: UInt32 {
        UInt32(truncatingIfNeeded: (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
    }

    /// Types the strokes in order, each with its modifiers held; a keymap change is sent and waited for first.
    func type(_ strokes: [WaylandStroke]) async -> ActionResult {
        let needed = strokes.flatMap { $0.modifiers + [$0.keysym] }
        do {
            try await run { handle, this in
                if this.keymap.add(needed) {
                    guard deck_wlr_keyboard_keymap(handle, this.keymap.text) >= 0 else { return -1 }
                    guard deck_wlr_input_roundtrip(handle) >= 0 else { return -1 }
                }
                for stroke in strokes {
                    let keys = (stroke.modifiers + [stroke.keysym]).compactMap(this.keymap.evdevCode)
                    let mask = VirtualKeymap.modifierMask(stroke.modifiers)
                    // wlroots takes a virtual keyboard's modifier state only from `modifiers`, not from its keys.
                    if mask != 0, deck_wlr_keyboard_modifiers(handle, mask) < 0 { return -1 }
                    for key in keys where deck_wlr_keyboard_key(handle, this.now, key, 1) < 0 { return -1 }
                    for key in keys.reversed() where deck_wlr_keyboard_key(handle, this.now, key, 0) < 0 { return -1 }
                    if mask != 0, deck_wlr_keyboard_modifiers(handle, 0) < 0 { return -1 }
                }
                return deck_wlr_input_roundtrip(handle)
            }
            return .ok
        } catch InputSinkError.noInjection {
            return .failed("this Wayland desktop offers no virtual keyboard")
        } catch {
            return .failed("no display")
        }
    }

    /// Runs `body` on the queue with an open connection; a negative answer closes it (the next call reopens).
    private func run(_ body: @escaping @Sendable (OpaquePointer, WlrInput) -> Int32) async throws {
        let failure: InputSinkError? = await withCheckedContinuation { continuation in
            queue.async {
                guard let handle = self.open() else { return continuation.resume(returning: .noDisplay) }
                guard body(handle, self) >= 0 else {
                    self.close()
                    return continuation.resume(returning: .noInjection)
                }
                continuation.resume(returning: nil)
            }
        }
        if let failure { throw failure }
    }

    /// On the queue: the connection, opened with both devices, a warm-up key and the layout's size.
    private func open() -> OpaquePointer? {
        if let handle { return handle }
        var missing: Int32 = 0
        guard let opened = deck_wlr_input_open(displayName, &missing) else { return nil }
        handle = opened
        readLayout()
        // The compositor drops the first key of a new virtual keyboard (measured with wtype): a Shift tap first.
        keymap = VirtualKeymap()
        _ = keymap.add([VirtualKeymap.shiftL])
        if deck_wlr_keyboard_keymap(opened, keymap.text) >= 0, let shift = keymap.evdevCode(VirtualKeymap.shiftL) {
            _ = deck_wlr_keyboard_key(opened, now, shift, 1)
            _ = deck_wlr_keyboard_key(opened, now, shift, 0)
            _ = deck_wlr_input_roundtrip(opened)
        }
        return opened
    }

    /// The pixel in layout pixels. A monitor the portal desktop lists has its own pixels, which a scaled output has
    /// more of than layout pixels (2880×1800 at scale 2 covers 1440×900): scaled to the output sway places at the
    /// monitor's origin. Extend's pointer area is in layout pixels already, so the same as its output's place.
    static func layoutPoint(_ pixel: MonitorPixel, places: [PixelRect]) -> (x: Int, y: Int) {
        let monitor = pixel.monitor
        guard monitor.width > 0, monitor.height > 0,
            let place = places.first(where: { Double($0.x) == monitor.minX && Double($0.y) == monitor.minY })
        else { return (pixel.desktopX, pixel.desktopY) }
        return (
            place.x + Int(Double(pixel.x) * Double(place.width) / monitor.width),
            place.y + Int(Double(pixel.y) * Double(place.height) / monitor.height)
        )
    }

    /// On the queue: the box around every output, in layout pixels. wlroots tells a Wayland client no output's
    /// position (wl_output's geometry says 0, 0), so sway's IPC gives the rectangles where it answers.
    private func readLayout() {
        let sway = Self.swayLayout()
        let frames =
            sway
            ?? (WaylandOutputs.current(display: displayName) ?? []).map { monitor in
                let scale = max(monitor.scale, 1)
                return (
                    x: monitor.frame.x, y: monitor.frame.y,
                    right: monitor.frame.x + Int((Double(monitor.frame.width) / scale).rounded()),
                    bottom: monitor.frame.y + Int((Double(monitor.frame.height) / scale).rounded())
                )
            }
        places = (sway ?? []).map {
            PixelRect(x: $0.x, y: $0.y, width: $0.right - $0.x, height: $0.bottom - $0.y)
        }
        let (left, top) = (frames.map(\.x).min() ?? 0, frames.map(\.y).min() ?? 0)
        layout = (
            left, top, UInt32(clamping: (frames.map(\.right).max() ?? 0) - left),
            UInt32(clamping: (frames.map(\.bottom).max() ?? 0) - top)
        )
    }

    private static func swayLayout() -> [(x: Int, y: Int, right: Int, bottom: Int)]? {
        guard let outputs = SwayIPC.find()?.outputs() else { return nil }
        return outputs.filter(\.active).map {
            ($0.rect.x, $0.rect.y, $0.rect.x + $0.rect.width, $0.rect.y + $0.rect.height)
        }
    }

    private func close() {
        if let handle { deck_wlr_input_close(handle) }
        handle = nil
    }
}
