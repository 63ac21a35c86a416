#define _GNU_SOURCE
#include "deck_wlr_screencopy.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-screencopy-unstable-v1-client-protocol.h"

enum { MAX_OUTPUTS = 32 };

struct named_output {
    struct wl_output *output;
    char *name;
};

struct copy {
    struct wl_display *display;
    struct wl_shm *shm;
    struct zwlr_screencopy_manager_v1 *manager;
    uint32_t manager_version;
    struct named_output outputs[MAX_OUTPUTS];
    int output_count;
    int64_t deadline_ms;
    // The frame's answers.
    bool has_shm, buffer_done, ready, failed;
    uint32_t format, width, height, stride, flags;
};

static int64_t now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (int64_t)time.tv_sec * 1000 + time.tv_nsec / 1000000;
}

// MARK: Globals and outputs

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t width_mm,
                            int32_t height_mm, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
    (void)data, (void)output, (void)x, (void)y, (void)width_mm, (void)height_mm, (void)subpixel, (void)make,
        (void)model, (void)transform;
}
static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width, int32_t height,
                        int32_t refresh) {
    (void)data, (void)output, (void)flags, (void)width, (void)height, (void)refresh;
}
static void output_done(void *data, struct wl_output *output) { (void)data, (void)output; }
static void output_scale(void *data, struct wl_output *output, int32_t factor) {
    (void)data, (void)output, (void)factor;
}
static void output_name(void *data, struct wl_output *output, const char *name) {
    struct named_output *named = data;
    (void)output;
    free(named->name);
    named->name = strdup(name);
}
static void output_description(void *data, struct wl_output *output, const char *description) {
    (void)data, (void)output, (void)description;
}

static const struct wl_output_listener output_listener = {
    output_geometry, output_mode, output_done, output_scale, output_name, output_description,
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct copy *copy = data;
    if (!copy->shm && strcmp(interface, wl_shm_interface.name) == 0) {
        copy->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (!copy->manager && strcmp(interface, zwlr_screencopy_manager_v1_interface.name) == 0) {
        copy->manager_version = version < 3 ? version : 3;
        copy->manager = wl_registry_bind(registry, name, &zwlr_screencopy_manager_v1_interface, copy->manager_version);
    } else if (strcmp(interface, wl_output_interface.name) == 0 && version >= 4 && copy->output_count < MAX_OUTPUTS) {
        struct named_output *named = &copy->outputs[copy->output_count++];
        named->output = wl_registry_bind(registry, name, &wl_output_interface, 4);
        wl_output_add_listener(named->output, &output_listener, named);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

// MARK: Waiting with a deadline

// Dispatches events until `*done` is set; false when the deadline passed or the connection broke.
static bool dispatch_until(struct copy *copy, const bool *done) {
    struct wl_display *display = copy->display;
    while (!*done) {
        while (wl_display_prepare_read(display) != 0) {
            if (wl_display_dispatch_pending(display) < 0) return false;
            if (*done) return true;
        }
        if (wl_display_flush(display) < 0 && errno != EAGAIN) {
            wl_display_cancel_read(display);
            return false;
        }
        int64_t left = copy->deadline_ms - now_ms();
        struct pollfd watched = {.fd = wl_display_get_fd(display), .events = POLLIN};
        int ready = left > 0 ? poll(&watched, 1, (int)left) : 0;
        if (ready <= 0) {
            wl_display_cancel_read(display);
            if (ready < 0 && errno == EINTR) continue;
            return false;
        }
        if (wl_display_read_events(display) < 0) return false;
        if (wl_display_dispatch_pending(display) < 0) return false;
    }
    return true;
}

static void synced(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    if (data) *(bool *)data = true;
    wl_callback_destroy(callback);
}

static const struct wl_callback_listener sync_listener = {synced};

static bool roundtrip(struct copy *copy) {
    bool done = false;
    struct wl_callback *callback = wl_display_sync(copy->display);
    wl_callback_add_listener(callback, &sync_listener, &done);
    if (dispatch_until(copy, &done)) return true;
    // The callback may still come; it must not write to `done` after this frame is gone.
    wl_proxy_set_user_data((struct wl_proxy *)callback, NULL);
    return false;
}

// MARK: The frame

static void frame_buffer(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format, uint32_t width,
                         uint32_t height, uint32_t stride) {
    struct copy *copy = data;
    (void)frame;
    copy->has_shm = true;
    copy->format = format, copy->width = width, copy->height = height, copy->stride = stride;
    // Before version 3 no buffer_done follows: the one shared-memory description is all there is.
    if (copy->manager_version < 3) copy->buffer_done = true;
}
static void frame_flags(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t flags) {
    (void)frame;
    ((struct copy *)data)->flags = flags;
}
static void frame_ready(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t sec_hi, uint32_t sec_lo,
                        uint32_t nsec) {
    (void)frame, (void)sec_hi, (void)sec_lo, (void)nsec;
    ((struct copy *)data)->ready = true;
}
static void frame_failed(void *data, struct zwlr_screencopy_frame_v1 *frame) {
    (void)frame;
    struct copy *copy = data;
    copy->failed = true;
    copy->buffer_done = true;  // also ends a wait for the buffer's description
    copy->ready = true;        // ends the wait for the copy; `failed` says how it ended
}
static void frame_damage(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t x, uint32_t y, uint32_t width,
                         uint32_t height) {
    (void)data, (void)frame, (void)x, (void)y, (void)width, (void)height;
}
static void frame_linux_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format, uint32_t width,
                               uint32_t height) {
    (void)data, (void)frame, (void)format, (void)width, (void)height;
}
static void frame_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *frame) {
    (void)frame;
    ((struct copy *)data)->buffer_done = true;
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
    frame_buffer, frame_flags, frame_ready, frame_failed, frame_damage, frame_linux_dmabuf, frame_buffer_done,
};

// Turns a y-inverted picture over, one row at a time.
static void turn_over(uint8_t *pixels, uint32_t stride, uint32_t height) {
    uint8_t *row = malloc(stride);
    if (!row) return;
    for (uint32_t top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
        memcpy(row, pixels + (size_t)top * stride, stride);
        memcpy(pixels + (size_t)top * stride, pixels + (size_t)bottom * stride, stride);
        memcpy(pixels + (size_t)bottom * stride, row, stride);
    }
    free(row);
}

// Copies the frame into a new shared-memory buffer; fills `picture` on success.
static int copy_frame(struct copy *copy, struct zwlr_screencopy_frame_v1 *frame, struct deck_wlr_picture *picture) {
    if (!dispatch_until(copy, &copy->buffer_done)) return DECK_WLR_COPY_TIMED_OUT;
    if (copy->failed) return DECK_WLR_COPY_FAILED;
    if (!copy->has_shm || (copy->format != WL_SHM_FORMAT_ARGB8888 && copy->format != WL_SHM_FORMAT_XRGB8888) ||
        copy->width == 0 || copy->height == 0 || copy->stride < copy->width * 4)
        return DECK_WLR_COPY_NO_SHM_FORMAT;
    size_t size = (size_t)copy->stride * copy->height;
    int fd = memfd_create("deck-screencopy", MFD_CLOEXEC);
    if (fd < 0) return DECK_WLR_COPY_FAILED;
    if (ftruncate(fd, (off_t)size) < 0) {
        close(fd);
        return DECK_WLR_COPY_FAILED;
    }
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) {
        close(fd);
        return DECK_WLR_COPY_FAILED;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(copy->shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)copy->width, (int32_t)copy->height,
                                                         (int32_t)copy->stride, copy->format);
    wl_shm_pool_destroy(pool);
    close(fd);
    zwlr_screencopy_frame_v1_copy(frame, buffer);
    bool copied = dispatch_until(copy, &copy->ready);
    wl_buffer_destroy(buffer);
    if (!copied || copy->failed) {
        munmap(pixels, size);
        return copied ? DECK_WLR_COPY_FAILED : DECK_WLR_COPY_TIMED_OUT;
    }
    if (copy->flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT) turn_over(pixels, copy->stride, copy->height);
    *picture = (struct deck_wlr_picture){
        .pixels = pixels, .size = size, .width = copy->width, .height = copy->height, .stride = copy->stride,
        .format = copy->format};
    return 0;
}

int deck_wlr_screencopy(const char *display, const char *output, int timeout_ms, struct deck_wlr_picture *picture) {
    struct copy copy = {.deadline_ms = now_ms() + timeout_ms};
    copy.display = wl_display_connect(display);
    if (!copy.display) return DECK_WLR_COPY_NO_DISPLAY;
    struct wl_registry *registry = wl_display_get_registry(copy.display);
    wl_registry_add_listener(registry, &registry_listener, &copy);
    int answer = DECK_WLR_COPY_TIMED_OUT;
    // The globals, then each output's name.
    if (roundtrip(&copy) && roundtrip(&copy)) {
        struct wl_output *chosen = NULL;
        for (int i = 0; i < copy.output_count; i++) {
            if (copy.outputs[i].name && strcmp(copy.outputs[i].name, output) == 0) chosen = copy.outputs[i].output;
        }
        if (!copy.manager || !copy.shm) {
            answer = DECK_WLR_COPY_NO_MANAGER;
        } else if (!chosen) {
            answer = DECK_WLR_COPY_NO_OUTPUT;
        } else {
            struct zwlr_screencopy_frame_v1 *frame =
                zwlr_screencopy_manager_v1_capture_output(copy.manager, 1, chosen);
            zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, &copy);
            answer = copy_frame(&copy, frame, picture);
            zwlr_screencopy_frame_v1_destroy(frame);
        }
    }
    for (int i = 0; i < copy.output_count; i++) {
        wl_output_release(copy.outputs[i].output);
        free(copy.outputs[i].name);
    }
    if (copy.manager) zwlr_screencopy_manager_v1_destroy(copy.manager);
    if (copy.shm) wl_shm_destroy(copy.shm);
    wl_registry_destroy(registry);
    wl_display_flush(copy.display);
    wl_display_disconnect(copy.display);
    return answer;
}

void deck_wlr_picture_free(struct deck_wlr_picture *picture) {
    if (picture->pixels) munmap(picture->pixels, picture->size);
    picture->pixels = NULL;
}
