import CDeckShim
import CXKBCommon

/// The keys of a keymap that can be held to reach a level: those whose base keysym is Shift_L, Shift_R or
/// ISO_Level3_Shift (AltGr), with the modifiers each sets while held, found by pressing it in an xkb_state.
/// Left Shift, right Shift and right Alt come first, so a layout with AltGr on right Alt (de, fr…) uses that key
/// and not the spare <LVL3> key XKB's `pc` symbols also give ISO_Level3_Shift.
struct UinputModifierKeys {
    private var keys: [(code: UInt16, mask: xkb_mod_mask_t)] = []
    private let keymap: OpaquePointer

    private static let holdable: Set<UInt32> = [0xffe1, 0xffe2, 0xfe03]  // Shift_L, Shift_R, ISO_Level3_Shift
    private static let preferred = [KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_RIGHTALT].map { xkb_keycode_t($0 + 8) }

    /// Reads the holdable keys of `keymap` in its layout `group` (the keymap is borrowed: used only while the
    /// caller holds it).
    init(keymap: OpaquePointer, group: UInt32) {
        self.keymap = keymap
        guard let state = xkb_state_new(keymap) else { return }
        defer { xkb_state_unref(state) }
        // In a keymap of several layouts, right Alt may be AltGr in one and Alt in another.
        xkb_state_update_mask(state, 0, 0, 0, 0, 0, group)
        let all = Array(xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap))
        let ordered = Self.preferred.filter(all.contains) + all.filter { !Self.preferred.contains($0) }
        for keycode in ordered where (9...256).contains(keycode) {
            guard xkb_state_key_get_level(state, keycode, 0) == 0,
                Self.holdable.contains(xkb_state_key_get_one_sym(state, keycode))
            else { continue }
            xkb_state_update_key(state, keycode, XKB_KEY_DOWN)
            let mask = xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED)
            xkb_state_update_key(state, keycode, XKB_KEY_UP)
            if mask != 0 { keys.append((UInt16(keycode - 8), mask)) }
        }
    }

    /// The keys to hold for `level` of the key: for the first of the level's modifier sets that held keys can
    /// make exactly; nil when none can (Caps Lock, Control…).
    func keys(reaching level: UInt32, of keycode: xkb_keycode_t, layout: UInt32) -> [UInt16]? {
        var masks = [xkb_mod_mask_t](repeating: 0, count: 8)
        let count = xkb_keymap_key_get_mods_for_level(keymap, keycode, layout, level, &masks, masks.count)
        return masks.prefix(Int(count)).lazy.compactMap(keys(making:)).first
    }

    /// Held keys whose modifiers add up to exactly `mask`, taken in order; nil when they cannot.
    private func keys(making mask: xkb_mod_mask_t) -> [UInt16]? {
        var covered: xkb_mod_mask_t = 0
        var chosen: [UInt16] = []
        for key in keys where covered != mask && key.mask & ~mask == 0 && key.mask & ~covered != 0 {
            covered |= key.mask
            chosen.append(key.code)
        }
        return covered == mask ? chosen : nil
    }
}
