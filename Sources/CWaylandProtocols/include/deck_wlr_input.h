#pragma once
// A wlroots compositor's virtual pointer and virtual keyboard for one seat, on a Wayland connection of their own.
// The registry and listener plumbing lives here in C (function-pointer tables are awkward from Swift); the
// host's logic (coordinates, keymaps, key plans) stays in Swift (DeckWayland/WlrInput*.swift).
// Not thread-safe: one caller at a time (the host's WlrInput queue).
#include <stdint.h>

struct deck_wlr_input;

/// What `deck_wlr_input_open` found missing (bits), for a clear error.
enum {
    DECK_WLR_NO_SEAT = 1,
    DECK_WLR_NO_POINTER_MANAGER = 2,
    DECK_WLR_NO_KEYBOARD_MANAGER = 4,
};

/// Connects to `display` (NULL: $WAYLAND_DISPLAY) and creates the virtual pointer and keyboard. NULL when there is
/// no display; else `*missing` holds the bits of what the compositor lacks (the devices it has are created).
struct deck_wlr_input *deck_wlr_input_open(const char *display, int *missing);
void deck_wlr_input_close(struct deck_wlr_input *input);

/// Each returns what wl_display_flush returned: negative when the connection is broken.
int deck_wlr_pointer_motion_absolute(struct deck_wlr_input *input, uint32_t time, uint32_t x, uint32_t y,
                                     uint32_t width, uint32_t height);
int deck_wlr_pointer_button(struct deck_wlr_input *input, uint32_t time, uint32_t button, int pressed);
/// `axis`: 0 vertical, 1 horizontal; `steps`: wheel notches (positive: down or right).
int deck_wlr_pointer_wheel(struct deck_wlr_input *input, uint32_t time, uint32_t axis, int32_t steps);
/// Sends an XKB v1 keymap (NUL-terminated text) through a memfd.
int deck_wlr_keyboard_keymap(struct deck_wlr_input *input, const char *keymap);
/// `key`: an evdev code (an XKB keycode − 8).
int deck_wlr_keyboard_key(struct deck_wlr_input *input, uint32_t time, uint32_t key, int pressed);
/// Sets the depressed modifiers (XKB masks: Shift 1, Control 4): wlroots does not derive them from a virtual
/// keyboard's keys.
int deck_wlr_keyboard_modifiers(struct deck_wlr_input *input, uint32_t depressed);
/// Waits until the compositor has handled every request sent so far; negative when the connection is broken.
int deck_wlr_input_roundtrip(struct deck_wlr_input *input);
