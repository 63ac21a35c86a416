#define _GNU_SOURCE
#include "deck_wlr_clipboard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-data-control-unstable-v1-client-protocol.h"

/// An offer's MIME types, as its `offer` events list them.
struct offer_types {
    char **mimes;
    int count;
};

struct pending_send {
    int fd;
    char *mime;
};

struct deck_wlr_clipboard {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    struct zwlr_data_control_manager_v1 *manager;
    struct zwlr_data_control_device_v1 *device;
    /// The compositor ended the device (its seat went away).
    int finished;
    /// The current selection (NULL: empty) and how many selection events came.
    struct zwlr_data_control_offer_v1 *selection;
    uint64_t serial;
    /// The source we set, until it is cancelled or replaced, and its `send` requests not taken yet.
    struct zwlr_data_control_source_v1 *source;
    struct pending_send *sends;
    int send_count;
};

static void free_offer(struct zwlr_data_control_offer_v1 *offer) {
    if (!offer) return;
    struct offer_types *types = zwlr_data_control_offer_v1_get_user_data(offer);
    if (types) {
        for (int i = 0; i < types->count; i++) free(types->mimes[i]);
        free(types->mimes);
        free(types);
    }
    zwlr_data_control_offer_v1_destroy(offer);
}

static void offer_mime(void *data, struct zwlr_data_control_offer_v1 *offer, const char *mime) {
    struct offer_types *types = data;
    (void)offer;
    if (!types) return;
    char **grown = realloc(types->mimes, sizeof *grown * (size_t)(types->count + 1));
    if (!grown) return;
    types->mimes = grown;
    char *copy = strdup(mime);
    if (copy) types->mimes[types->count++] = copy;
}

static const struct zwlr_data_control_offer_v1_listener offer_listener = {offer_mime};

static void device_data_offer(void *data, struct zwlr_data_control_device_v1 *device,
                              struct zwlr_data_control_offer_v1 *offer) {
    (void)data, (void)device;
    zwlr_data_control_offer_v1_add_listener(offer, &offer_listener, calloc(1, sizeof(struct offer_types)));
}

static void device_selection(void *data, struct zwlr_data_control_device_v1 *device,
                             struct zwlr_data_control_offer_v1 *offer) {
    struct deck_wlr_clipboard *clipboard = data;
    (void)device;
    if (clipboard->selection != offer) free_offer(clipboard->selection);
    clipboard->selection = offer;
    clipboard->serial++;
}

static void device_finished(void *data, struct zwlr_data_control_device_v1 *device) {
    struct deck_wlr_clipboard *clipboard = data;
    (void)device;
    clipboard->finished = 1;
}

static const struct zwlr_data_control_device_v1_listener device_listener = {device_data_offer, device_selection,
                                                                            device_finished};

static void source_send(void *data, struct zwlr_data_control_source_v1 *source, const char *mime, int32_t fd) {
    struct deck_wlr_clipboard *clipboard = data;
    struct pending_send *grown = NULL;
    char *copy = NULL;
    if (source == clipboard->source) {
        grown = realloc(clipboard->sends, sizeof *grown * (size_t)(clipboard->send_count + 1));
        copy = strdup(mime);
    }
    if (!grown || !copy) {
        // Not our current source, or no memory: the reader gets EOF at once.
        free(copy);
        if (grown) clipboard->sends = grown;
        close(fd);
        return;
    }
    clipboard->sends = grown;
    clipboard->sends[clipboard->send_count++] = (struct pending_send){fd, copy};
}

static void source_cancelled(void *data, struct zwlr_data_control_source_v1 *source) {
    struct deck_wlr_clipboard *clipboard = data;
    if (source == clipboard->source) clipboard->source = NULL;
    zwlr_data_control_source_v1_destroy(source);
}

static const struct zwlr_data_control_source_v1_listener source_listener = {source_send, source_cancelled};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct deck_wlr_clipboard *clipboard = data;
    if (!clipboard->seat && strcmp(interface, wl_seat_interface.name) == 0) {
        clipboard->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (!clipboard->manager && strcmp(interface, zwlr_data_control_manager_v1_interface.name) == 0) {
        clipboard->manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, 1);
    }
    (void)version;
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

struct deck_wlr_clipboard *deck_wlr_clipboard_open(const char *display, int *missing) {
    struct deck_wlr_clipboard *clipboard = calloc(1, sizeof *clipboard);
    if (!clipboard) return NULL;
    clipboard->display = wl_display_connect(display);
    if (!clipboard->display) {
        free(clipboard);
        return NULL;
    }
    clipboard->registry = wl_display_get_registry(clipboard->display);
    wl_registry_add_listener(clipboard->registry, &registry_listener, clipboard);
    wl_display_roundtrip(clipboard->display);
    *missing = (clipboard->seat ? 0 : DECK_WLR_CLIPBOARD_NO_SEAT) | (clipboard->manager ? 0 : DECK_WLR_CLIPBOARD_NO_MANAGER);
    if (clipboard->seat && clipboard->manager) {
        clipboard->device = zwlr_data_control_manager_v1_get_data_device(clipboard->manager, clipboard->seat);
        zwlr_data_control_device_v1_add_listener(clipboard->device, &device_listener, clipboard);
        // The device's first selection event (the clipboard as it is now) arrives within this round trip.
        wl_display_roundtrip(clipboard->display);
    }
    return clipboard;
}

void deck_wlr_clipboard_close(struct deck_wlr_clipboard *clipboard) {
    if (!clipboard) return;
    for (int i = 0; i < clipboard->send_count; i++) {
        close(clipboard->sends[i].fd);
        free(clipboard->sends[i].mime);
    }
    free(clipboard->sends);
    free_offer(clipboard->selection);
    if (clipboard->source) zwlr_data_control_source_v1_destroy(clipboard->source);
    if (clipboard->device) zwlr_data_control_device_v1_destroy(clipboard->device);
    if (clipboard->manager) zwlr_data_control_manager_v1_destroy(clipboard->manager);
    if (clipboard->seat) wl_seat_destroy(clipboard->seat);
    wl_registry_destroy(clipboard->registry);
    wl_display_flush(clipboard->display);
    wl_display_disconnect(clipboard->display);
    free(clipboard);
}

int deck_wlr_clipboard_fd(struct deck_wlr_clipboard *clipboard) { return wl_display_get_fd(clipboard->display); }

int deck_wlr_clipboard_flush(struct deck_wlr_clipboard *clipboard) {
    // A full socket buffer is not a broken connection: the rest goes with the next flush.
    if (wl_display_flush(clipboard->display) < 0 && errno != EAGAIN) return -1;
    return clipboard->finished ? -1 : 0;
}

int deck_wlr_clipboard_prepare(struct deck_wlr_clipboard *clipboard) {
    while (wl_display_prepare_read(clipboard->display) != 0) {
        if (wl_display_dispatch_pending(clipboard->display) < 0) return -1;
    }
    if (deck_wlr_clipboard_flush(clipboard) < 0) {
        wl_display_cancel_read(clipboard->display);
        return -1;
    }
    return 0;
}

int deck_wlr_clipboard_read(struct deck_wlr_clipboard *clipboard, int readable) {
    if (readable) {
        if (wl_display_read_events(clipboard->display) < 0) return -1;
    } else {
        wl_display_cancel_read(clipboard->display);
    }
    if (wl_display_dispatch_pending(clipboard->display) < 0) return -1;
    return clipboard->finished ? -1 : 0;
}

uint64_t deck_wlr_clipboard_selection_serial(struct deck_wlr_clipboard *clipboard) { return clipboard->serial; }

int deck_wlr_clipboard_offer_count(struct deck_wlr_clipboard *clipboard) {
    if (!clipboard->selection) return 0;
    struct offer_types *types = zwlr_data_control_offer_v1_get_user_data(clipboard->selection);
    return types ? types->count : 0;
}

const char *deck_wlr_clipboard_offer_mime(struct deck_wlr_clipboard *clipboard, int index) {
    if (index < 0 || index >= deck_wlr_clipboard_offer_count(clipboard)) return NULL;
    struct offer_types *types = zwlr_data_control_offer_v1_get_user_data(clipboard->selection);
    return types->mimes[index];
}

int deck_wlr_clipboard_receive(struct deck_wlr_clipboard *clipboard, const char *mime) {
    if (!clipboard->selection) return -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    // libwayland duplicates the descriptor when it queues the request: our write end closes at once, so the read
    // end sees EOF when the owner closes its copy.
    zwlr_data_control_offer_v1_receive(clipboard->selection, mime, fds[1]);
    close(fds[1]);
    deck_wlr_clipboard_flush(clipboard);
    return fds[0];
}

int deck_wlr_clipboard_set(struct deck_wlr_clipboard *clipboard, const char *const *mimes, int count) {
    if (!clipboard->device) return -1;
    if (clipboard->source) zwlr_data_control_source_v1_destroy(clipboard->source);
    clipboard->source = zwlr_data_control_manager_v1_create_data_source(clipboard->manager);
    zwlr_data_control_source_v1_add_listener(clipboard->source, &source_listener, clipboard);
    for (int i = 0; i < count; i++) zwlr_data_control_source_v1_offer(clipboard->source, mimes[i]);
    zwlr_data_control_device_v1_set_selection(clipboard->device, clipboard->source);
    if (wl_display_roundtrip(clipboard->display) < 0) return -1;
    return clipboard->finished ? -1 : 0;
}

int deck_wlr_clipboard_owns(struct deck_wlr_clipboard *clipboard) { return clipboard->source != NULL; }

int deck_wlr_clipboard_take_send(struct deck_wlr_clipboard *clipboard, char **mime) {
    if (clipboard->send_count == 0) return -1;
    struct pending_send first = clipboard->sends[0];
    memmove(clipboard->sends, clipboard->sends + 1, sizeof first * (size_t)(clipboard->send_count - 1));
    clipboard->send_count--;
    *mime = first.mime;
    return first.fd;
}
