#define _GNU_SOURCE
#include "deck_wlr_input.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

struct deck_wlr_input {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    struct zwlr_virtual_pointer_manager_v1 *pointer_manager;
    struct zwp_virtual_keyboard_manager_v1 *keyboard_manager;
    struct zwlr_virtual_pointer_v1 *pointer;
    struct zwp_virtual_keyboard_v1 *keyboard;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct deck_wlr_input *input = data;
    if (!input->seat && strcmp(interface, wl_seat_interface.name) == 0) {
        input->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (!input->pointer_manager && strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
        input->pointer_manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    } else if (!input->keyboard_manager && strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0) {
        input->keyboard_manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
    }
    (void)version;
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

struct deck_wlr_input *deck_wlr_input_open(const char *display, int *missing) {
    struct deck_wlr_input *input = calloc(1, sizeof *input);
    if (!input) return NULL;
    input->display = wl_display_connect(display);
    if (!input->display) {
        free(input);
        return NULL;
    }
    input->registry = wl_display_get_registry(input->display);
    wl_registry_add_listener(input->registry, &registry_listener, input);
    wl_display_roundtrip(input->display);
    *missing = (input->seat ? 0 : DECK_WLR_NO_SEAT) | (input->pointer_manager ? 0 : DECK_WLR_NO_POINTER_MANAGER) |
               (input->keyboard_manager ? 0 : DECK_WLR_NO_KEYBOARD_MANAGER);
    if (input->pointer_manager)
        input->pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(input->pointer_manager, input->seat);
    if (input->keyboard_manager && input->seat)
        input->keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(input->keyboard_manager, input->seat);
    wl_display_roundtrip(input->display);
    return input;
}

void deck_wlr_input_close(struct deck_wlr_input *input) {
    if (!input) return;
    if (input->keyboard) zwp_virtual_keyboard_v1_destroy(input->keyboard);
    if (input->pointer) zwlr_virtual_pointer_v1_destroy(input->pointer);
    if (input->keyboard_manager) zwp_virtual_keyboard_manager_v1_destroy(input->keyboard_manager);
    if (input->pointer_manager) zwlr_virtual_pointer_manager_v1_destroy(input->pointer_manager);
    if (input->seat) wl_seat_destroy(input->seat);
    wl_registry_destroy(input->registry);
    wl_display_flush(input->display);
    wl_display_disconnect(input->display);
    free(input);
}

int deck_wlr_pointer_motion_absolute(struct deck_wlr_input *input, uint32_t time, uint32_t x, uint32_t y,
                                     uint32_t width, uint32_t height) {
    if (!input->pointer) return -1;
    zwlr_virtual_pointer_v1_motion_absolute(input->pointer, time, x, y, width, height);
    zwlr_virtual_pointer_v1_frame(input->pointer);
    return wl_display_flush(input->display);
}

int deck_wlr_pointer_button(struct deck_wlr_input *input, uint32_t time, uint32_t button, int pressed) {
    if (!input->pointer) return -1;
    zwlr_virtual_pointer_v1_button(input->pointer, time, button,
                                   pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
    zwlr_virtual_pointer_v1_frame(input->pointer);
    return wl_display_flush(input->display);
}

int deck_wlr_pointer_wheel(struct deck_wlr_input *input, uint32_t time, uint32_t axis, int32_t steps) {
    if (!input->pointer) return -1;
    // One notch is 15 in wl_pointer's axis units, as libinput reports a wheel click.
    zwlr_virtual_pointer_v1_axis_source(input->pointer, WL_POINTER_AXIS_SOURCE_WHEEL);
    zwlr_virtual_pointer_v1_axis_discrete(input->pointer, time, axis, wl_fixed_from_int(15 * steps), steps);
    zwlr_virtual_pointer_v1_frame(input->pointer);
    return wl_display_flush(input->display);
}

int deck_wlr_keyboard_keymap(struct deck_wlr_input *input, const char *keymap) {
    if (!input->keyboard) return -1;
    size_t size = strlen(keymap) + 1;
    int fd = memfd_create("touchdeck-keymap", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (write(fd, keymap, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    // libwayland duplicates the descriptor when it queues the request: ours can close at once.
    zwp_virtual_keyboard_v1_keymap(input->keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
    close(fd);
    return wl_display_flush(input->display);
}

int deck_wlr_keyboard_key(struct deck_wlr_input *input, uint32_t time, uint32_t key, int pressed) {
    if (!input->keyboard) return -1;
    zwp_virtual_keyboard_v1_key(input->keyboard, time, key,
                                pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
    return wl_display_flush(input->display);
}

int deck_wlr_keyboard_modifiers(struct deck_wlr_input *input, uint32_t depressed) {
    if (!input->keyboard) return -1;
    zwp_virtual_keyboard_v1_modifiers(input->keyboard, depressed, 0, 0, 0);
    return wl_display_flush(input->display);
}

int deck_wlr_input_roundtrip(struct deck_wlr_input *input) { return wl_display_roundtrip(input->display); }
