import CXKBCommon

/// Where each keysym of a keyboard layout sits, for a keyboard that sends key codes (uinput): the compositor
/// applies its own keymap (the user's layout) to our device, so typing a keysym means pressing the key that has
/// it, with the modifier keys that reach its level held (Shift for level 2, AltGr for level 3).
///
/// Each keysym of the layout's current group gets its lowest (level, key) that can be reached by pressing keys
/// whose base keysym is Shift_L, Shift_R or ISO_Level3_Shift: levels needing Caps Lock, Control or a latch are
/// left out. The evdev code is the XKB key code − 8; only codes our keyboard has (1…248) are used.
struct UinputKeymap: Sendable {
    /// A key and the modifier keys held around it, as evdev codes.
    struct Key: Equatable, Sendable {
        var code: UInt16
        var modifiers: [UInt16] = []

        /// Modifiers first, then the key.
        var codes: [UInt16] { modifiers + [code] }
    }

    private let keys: [UInt32: Key]

    /// Where `keysym` is, or nil when no key of the layout types it.
    func key(for keysym: UInt32) -> Key? { keys[keysym] }

    /// Compiles keymap text (what wl_keyboard.keymap sends) and reads its group `group`.
    static func compile(text: String, group: UInt32 = 0) -> UinputKeymap? {
        withContext { context in
            xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        }.map { UinputKeymap(keymap: $0, group: group) }
    }

    /// Compiles a keymap from XKB names; nil names take xkbcommon's defaults, which honour XKB_DEFAULT_RULES,
    /// XKB_DEFAULT_MODEL, XKB_DEFAULT_LAYOUT, XKB_DEFAULT_VARIANT and XKB_DEFAULT_OPTIONS.
    static func compile(layout: String? = nil, variant: String? = nil) -> UinputKeymap? {
        withContext { context in
            layout.withOptionalCString { layout in
                variant.withOptionalCString { variant in
                    var names = xkb_rule_names(rules: nil, model: nil, layout: layout, variant: variant, options: nil)
                    return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }.map { UinputKeymap(keymap: $0, group: 0) }
    }

    /// Runs `compile` with a fresh context; the keymap it returns is owned by the caller's `init` below.
    private static func withContext(_ compile: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        return compile(context)
    }

    /// Walks `keymap` (and releases it): level by level, key by key, so the first place found is the lowest.
    private init(keymap: OpaquePointer, group: UInt32) {
        defer { xkb_keymap_unref(keymap) }
        let modifierKeys = UinputModifierKeys(keymap: keymap, group: group)
        let keycodes = xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap)
        let levels = keycodes.map { Self.levels(keymap, $0, group) }.max() ?? 0
        var found: [UInt32: Key] = [:]
        for level in 0..<levels {
            for keycode in keycodes where (9...256).contains(keycode) {
                let layout = Self.layout(keymap, keycode, group)
                guard level < xkb_keymap_num_levels_for_key(keymap, keycode, layout) else { continue }
                var syms: UnsafePointer<xkb_keysym_t>?
                // A level with several keysyms types them all at once: not a place for any single one.
                guard xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &syms) == 1,
                    let keysym = syms?.pointee, found[keysym] == nil,
                    let modifiers = modifierKeys.keys(reaching: level, of: keycode, layout: layout)
                else { continue }
                found[keysym] = Key(code: UInt16(keycode - 8), modifiers: modifiers)
            }
        }
        keys = found
    }

    /// The key's layout for `group` (a key with fewer layouts uses its first, as XKB's default wraps do).
    private static func layout(_ keymap: OpaquePointer, _ keycode: xkb_keycode_t, _ group: UInt32) -> UInt32 {
        group < xkb_keymap_num_layouts_for_key(keymap, keycode) ? group : 0
    }

    private static func levels(_ keymap: OpaquePointer, _ keycode: xkb_keycode_t, _ group: UInt32) -> UInt32 {
        guard xkb_keymap_num_layouts_for_key(keymap, keycode) > 0 else { return 0 }
        return xkb_keymap_num_levels_for_key(keymap, keycode, layout(keymap, keycode, group))
    }
}

extension String? {
    /// `withCString` for an optional string: nil passes NULL.
    fileprivate func withOptionalCString<T>(_ body: (UnsafePointer<CChar>?) -> T) -> T {
        switch self {
        case .some(let string): string.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
