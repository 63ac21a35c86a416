#pragma once
// A wlroots compositor's clipboard (the seat's selection) through zwlr_data_control_manager_v1, on a Wayland
// connection of its own. The listener plumbing lives here in C and keeps what the events said as state the caller
// takes after each dispatch (the current selection's MIME types and a serial, the `send` requests to answer);
// the host's logic (which type to read, the limits, writing the data, the event loop) stays in Swift
// (DeckWayland/Wlroots/WlrClipboard.swift). Not thread-safe: one thread at a time (the clipboard's own).
#include <stdint.h>

struct deck_wlr_clipboard;

/// What `deck_wlr_clipboard_open` found missing (bits), for a clear error.
enum {
    DECK_WLR_CLIPBOARD_NO_SEAT = 1,
    DECK_WLR_CLIPBOARD_NO_MANAGER = 2,
};

/// Connects to `display` (NULL: $WAYLAND_DISPLAY), binds the data-control manager and creates the seat's data
/// device, and waits for the compositor's first `selection` (the one current when the device was made). NULL when
/// there is no display; else `*missing` holds the bits of what the compositor lacks (then the handle has no
/// device and is good only for closing).
struct deck_wlr_clipboard *deck_wlr_clipboard_open(const char *display, int *missing);
void deck_wlr_clipboard_close(struct deck_wlr_clipboard *clipboard);

/// The connection's socket, for poll(2).
int deck_wlr_clipboard_fd(struct deck_wlr_clipboard *clipboard);
/// Before poll: dispatches what is queued, prepares to read and sends what is buffered. Negative: the connection
/// is broken (or the compositor ended the device). Must be followed by `deck_wlr_clipboard_read`.
int deck_wlr_clipboard_prepare(struct deck_wlr_clipboard *clipboard);
/// After poll: reads the socket when `readable` (else gives the read up) and dispatches. Negative: broken.
int deck_wlr_clipboard_read(struct deck_wlr_clipboard *clipboard, int readable);
/// Sends buffered requests. Negative: broken.
int deck_wlr_clipboard_flush(struct deck_wlr_clipboard *clipboard);

/// Grows by one at every `selection` event: a new copy (or the clipboard emptied) since the caller last looked.
uint64_t deck_wlr_clipboard_selection_serial(struct deck_wlr_clipboard *clipboard);
/// The current selection's MIME types (0 when the clipboard is empty), and the `index`th of them.
int deck_wlr_clipboard_offer_count(struct deck_wlr_clipboard *clipboard);
const char *deck_wlr_clipboard_offer_mime(struct deck_wlr_clipboard *clipboard, int index);
/// Asks the current selection's owner for its data as `mime` through a new pipe, and returns the pipe's read end
/// (non-blocking, close-on-exec; the caller reads it until EOF and closes it), or -1 without a selection.
int deck_wlr_clipboard_receive(struct deck_wlr_clipboard *clipboard, const char *mime);

/// Makes a new source offering `mimes` the selection (the previous source of ours is destroyed) and waits until
/// the compositor has handled it. Negative: broken.
int deck_wlr_clipboard_set(struct deck_wlr_clipboard *clipboard, const char *const *mimes, int count);
/// Whether the selection is still the source we set (no other client replaced it).
int deck_wlr_clipboard_owns(struct deck_wlr_clipboard *clipboard);
/// The oldest `send` request not taken yet: its descriptor (the caller writes the data and closes it), with the
/// MIME type asked for in `*mime` (the caller frees it); -1 when there is none.
int deck_wlr_clipboard_take_send(struct deck_wlr_clipboard *clipboard, char **mime);
