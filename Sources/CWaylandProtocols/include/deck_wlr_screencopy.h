#pragma once
// One picture of one output through wlroots' screencopy, on a Wayland connection of its own. `copy` (not
// `copy_with_damage`) answers at once, whether or not the output changed: what xdg-desktop-portal-wlr's casts,
// which copy only on damage, cannot give for an output that is not painting.
#include <stddef.h>
#include <stdint.h>

/// What `deck_wlr_screencopy` answers besides 0.
enum {
    DECK_WLR_COPY_NO_DISPLAY = -1,
    DECK_WLR_COPY_NO_MANAGER = -2,
    DECK_WLR_COPY_NO_OUTPUT = -3,
    DECK_WLR_COPY_NO_SHM_FORMAT = -4,
    DECK_WLR_COPY_FAILED = -5,
    DECK_WLR_COPY_TIMED_OUT = -6,
};

/// A copied picture: `stride * height` bytes of wl_shm `format` (0 ARGB8888, 1 XRGB8888: BGRA/BGRx in memory),
/// the top row first (a y-inverted copy is turned over). Mapped memory: give it back with `deck_wlr_picture_free`.
struct deck_wlr_picture {
    void *pixels;
    size_t size;
    uint32_t width, height, stride, format;
};

/// Connects to `display` (NULL: $WAYLAND_DISPLAY) and copies the output whose wl_output name (version 4) is
/// `output`, the cursor drawn in, waiting at most `timeout_ms` in all. 0 and `*picture` filled, or one of the
/// negative answers above.
int deck_wlr_screencopy(const char *display, const char *output, int timeout_ms, struct deck_wlr_picture *picture);
void deck_wlr_picture_free(struct deck_wlr_picture *picture);
