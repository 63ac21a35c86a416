// Test tooling only, preloaded into xdg-desktop-portal-wlr 0.7 (Debian 12) by scripts/with-sway; never part of the
// host. xdpw 0.7 starts a cast only when wlr-screencopy announced a DMA-BUF format (start_screencast() checks
// screencopy_frame_info[DMABUF] whenever its ScreenCast version is 3 or more), which never happens without a GPU:
// sway's pixman renderer offers shared memory only (upstream issue #289, fixed in 0.8). This shim repeats each
// frame's shared-memory format as a DMA-BUF one just before `buffer_done`, so the check passes; without a GBM
// device xdpw then offers PipeWire shared-memory buffers only, which is what the host asks for anyway.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

// zwlr_screencopy_frame_v1's events, in protocol order (version 3).
struct screencopy_frame_listener {
    void (*buffer)(void *, void *, uint32_t format, uint32_t width, uint32_t height, uint32_t stride);
    void (*flags)(void *, void *, uint32_t);
    void (*ready)(void *, void *, uint32_t, uint32_t, uint32_t);
    void (*failed)(void *, void *);
    void (*damage)(void *, void *, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*linux_dmabuf)(void *, void *, uint32_t format, uint32_t width, uint32_t height);
    void (*buffer_done)(void *, void *);
};

struct wrapped_frame {
    struct screencopy_frame_listener ours;
    const struct screencopy_frame_listener *theirs;
    void *data;
    uint32_t format, width, height;
    int saw_buffer, saw_dmabuf;
};

// wl_shm formats 0 and 1 are ARGB8888/XRGB8888; every other wl_shm format is its DRM fourcc.
static uint32_t drm_fourcc(uint32_t shm) { return shm == 0 ? 0x34325241 : shm == 1 ? 0x34325258 : shm; }

static void on_buffer(void *data, void *frame, uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
    struct wrapped_frame *w = data;
    w->format = format, w->width = width, w->height = height, w->saw_buffer = 1;
    w->theirs->buffer(w->data, frame, format, width, height, stride);
}
static void on_flags(void *data, void *frame, uint32_t flags) {
    struct wrapped_frame *w = data;
    w->theirs->flags(w->data, frame, flags);
}
static void on_ready(void *data, void *frame, uint32_t hi, uint32_t lo, uint32_t ns) {
    struct wrapped_frame *w = data;
    w->theirs->ready(w->data, frame, hi, lo, ns);
}
static void on_failed(void *data, void *frame) {
    struct wrapped_frame *w = data;
    w->theirs->failed(w->data, frame);
}
static void on_damage(void *data, void *frame, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    struct wrapped_frame *w = data;
    w->theirs->damage(w->data, frame, x, y, width, height);
}
static void on_linux_dmabuf(void *data, void *frame, uint32_t format, uint32_t width, uint32_t height) {
    struct wrapped_frame *w = data;
    w->saw_dmabuf = 1;
    w->theirs->linux_dmabuf(w->data, frame, format, width, height);
}
static void on_buffer_done(void *data, void *frame) {
    struct wrapped_frame *w = data;
    if (w->saw_buffer && !w->saw_dmabuf) w->theirs->linux_dmabuf(w->data, frame, drm_fourcc(w->format), w->width, w->height);
    w->theirs->buffer_done(w->data, frame);
}

int wl_proxy_add_listener(struct wl_proxy *proxy, void (**implementation)(void), void *data) {
    static int (*real)(struct wl_proxy *, void (**)(void), void *);
    if (!real) real = (int (*)(struct wl_proxy *, void (**)(void), void *))dlsym(RTLD_NEXT, "wl_proxy_add_listener");
    if (strcmp(wl_proxy_get_class(proxy), "zwlr_screencopy_frame_v1") != 0) return real(proxy, implementation, data);
    struct wrapped_frame *w = calloc(1, sizeof *w);  // a few bytes per frame object, for a test's lifetime
    w->theirs = (const struct screencopy_frame_listener *)implementation;
    w->data = data;
    w->ours = (struct screencopy_frame_listener){on_buffer, on_flags, on_ready, on_failed, on_damage, on_linux_dmabuf,
                                                  on_buffer_done};
    return real(proxy, (void (**)(void))&w->ours, w);
}
