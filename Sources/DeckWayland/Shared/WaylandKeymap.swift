import CWayland
import CXKBCommon
import Foundation

/// The keysyms the compositor's current keyboard layout can type, read the way any Wayland client gets its keymap
/// (wl_seat → wl_keyboard.keymap, compiled with xkbcommon). Mutter's RemoteDesktop types a keysym only when a key
/// of the current layout has it at some level, and a keysym it cannot place fails only in its own log (the D-Bus
/// call succeeds), so the host checks here first to report the failure.
///
/// The listener tables are `nonisolated(unsafe)`: built once, never written after, only read by libwayland.
enum WaylandKeymap {
    /// What reading the keymap found.
    enum Reading: Equatable {
        /// The keysyms of the current layout group, every level.
        case keysyms(Set<UInt32>)
        /// The seat has no keyboard (yet: a headless compositor gets one only with the first virtual device).
        case noKeyboard
        /// No Wayland display to ask (`$WAYLAND_DISPLAY` unset or refusing).
        case noDisplay
    }

    /// Reads the keymap the compositor gives its clients now.
    static func read(display name: String? = nil) -> Reading {
        guard let reader = collect(display: name) else { return .noDisplay }
        return reader.keysyms().map(Reading.keysyms) ?? .noKeyboard
    }

    /// The keymap text the compositor gives its clients now and the group they are told is current; nil with no
    /// display or no keyboard on the seat.
    static func text(display name: String? = nil) -> (text: String, group: UInt32)? {
        guard let reader = collect(display: name), let text = reader.keymapText else { return nil }
        return (text, reader.group)
    }

    /// What the listeners collect in three round trips on a connection of its own; nil with no display.
    private static func collect(display name: String?) -> KeymapReader? {
        guard let display = wl_display_connect(name) else { return nil }
        defer { wl_display_disconnect(display) }
        let reader = KeymapReader()
        let me = Unmanaged.passUnretained(reader).toOpaque()  // the reader outlives the connection (this scope)
        guard let registry = wl_display_get_registry(display) else { return nil }
        wl_registry_add_listener(registry, registryListener, me)
        // Globals, then the seat's capabilities, then the keyboard's keymap and modifiers: one round trip each.
        for _ in 0..<3 where wl_display_roundtrip(display) >= 0 {}
        if let keyboard = reader.keyboard { wl_keyboard_destroy(keyboard) }
        if let seat = reader.seat { wl_seat_destroy(seat) }
        wl_registry_destroy(registry)
        return reader
    }

    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_registry_listener(
                global: { data, registry, name, interface, version in
                    let reader = Unmanaged<KeymapReader>.fromOpaque(data!).takeUnretainedValue()
                    guard reader.seat == nil, let interface, String(cString: interface) == "wl_seat" else { return }
                    let bound = wl_registry_bind(registry, name, seatInterface, min(version, 5))
                    reader.seat = OpaquePointer(bound)
                    wl_seat_add_listener(reader.seat, seatListener, data)
                }, global_remove: { _, _, _ in }))
        return listener
    }()

    /// A copy of libwayland's `wl_seat_interface` at a stable address (Swift imports the C constant as a value).
    nonisolated(unsafe) private static let seatInterface: UnsafeMutablePointer<wl_interface> = {
        let interface = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        interface.initialize(to: wl_seat_interface)
        return interface
    }()

    nonisolated(unsafe) private static let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
        let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_seat_listener(
                capabilities: { data, seat, capabilities in
                    let reader = Unmanaged<KeymapReader>.fromOpaque(data!).takeUnretainedValue()
                    guard reader.keyboard == nil, capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 else {
                        return
                    }
                    reader.keyboard = wl_seat_get_keyboard(seat)
                    wl_keyboard_add_listener(reader.keyboard, keyboardListener, data)
                }, name: { _, _, _ in }))
        return listener
    }()

    nonisolated(unsafe) private static let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
        let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_keyboard_listener(
                keymap: { data, _, format, fd, size in
                    let reader = Unmanaged<KeymapReader>.fromOpaque(data!).takeUnretainedValue()
                    defer { close(fd) }
                    guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else { return }
                    reader.load(fd: fd, size: Int(size))
                },
                enter: { _, _, _, _, _ in }, leave: { _, _, _, _ in }, key: { _, _, _, _, _, _ in },
                modifiers: { data, _, _, _, _, _, group in
                    Unmanaged<KeymapReader>.fromOpaque(data!).takeUnretainedValue().group = group
                }, repeat_info: { _, _, _, _ in }))
        return listener
    }()
}

/// What the listeners collect during `WaylandKeymap.collect`; used on that one thread only.
private final class KeymapReader {
    var seat: OpaquePointer?
    var keyboard: OpaquePointer?
    var group: UInt32 = 0
    private(set) var keymapText: String?

    func load(fd: Int32, size: Int) {
        guard size > 0, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            return
        }
        defer { munmap(mapped, size) }
        // The text is NUL-terminated within `size`.
        keymapText = String(cString: mapped.assumingMemoryBound(to: CChar.self))
    }

    func keysyms() -> Set<UInt32>? {
        guard let keymapText, let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        guard
            let keymap = xkb_keymap_new_from_string(
                context, keymapText, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return nil }
        defer { xkb_keymap_unref(keymap) }
        var found = Set<UInt32>()
        for keycode in xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap) {
            let layouts = xkb_keymap_num_layouts_for_key(keymap, keycode)
            guard layouts > 0 else { continue }
            let layout = group < layouts ? group : 0
            for level in 0..<xkb_keymap_num_levels_for_key(keymap, keycode, layout) {
                var syms: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &syms)
                for index in 0..<Int(max(0, count)) { found.insert(syms![index]) }
            }
        }
        return found
    }
}
