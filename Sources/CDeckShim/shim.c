#define _GNU_SOURCE
#include "CDeckShim.h"

#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>
#include <spa/pod/builder.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

/// An empty `a{sv}`, floating.
static GVariant *empty_dictionary(void) { return g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0); }

GVariant *deck_gv_no_options(void) { return g_variant_new("(@a{sv})", empty_dictionary()); }

GVariant *deck_gv_screencast_options(const char *remote_desktop_session_id) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "remote-desktop-session-id", g_variant_new_string(remote_desktop_session_id));
    return g_variant_new("(a{sv})", &options);
}

GVariant *deck_gv_record_monitor(const char *connector, uint32_t cursor_mode) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "cursor-mode", g_variant_new_uint32(cursor_mode));
    return g_variant_new("(sa{sv})", connector, &options);
}

GVariant *deck_gv_record_virtual(uint32_t cursor_mode) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "cursor-mode", g_variant_new_uint32(cursor_mode));
    return g_variant_new("(a{sv})", &options);
}

GVariant *deck_gv_two_strings(const char *first, const char *second) { return g_variant_new("(ss)", first, second); }
GVariant *deck_gv_string(const char *value) { return g_variant_new("(s)", value); }
GVariant *deck_gv_motion(const char *stream, double x, double y) { return g_variant_new("(sdd)", stream, x, y); }
GVariant *deck_gv_button(int32_t button, gboolean pressed) { return g_variant_new("(ib)", button, pressed); }
GVariant *deck_gv_axis_discrete(uint32_t axis, int32_t steps) { return g_variant_new("(ui)", axis, steps); }
GVariant *deck_gv_keysym(uint32_t keysym, gboolean pressed) { return g_variant_new("(ub)", keysym, pressed); }

// GetCurrentState: (u serial, a((ssss) a(siiddada{sv}) a{sv}) monitors,
//                   a(iiduba(ssss)a{sv}) logical_monitors, a{sv} properties)
static gboolean current_mode(GVariant *modes, int32_t *width, int32_t *height) {
    GVariantIter iter;
    GVariant *mode;
    g_variant_iter_init(&iter, modes);
    while ((mode = g_variant_iter_next_value(&iter))) {
        const char *id;
        int32_t w, h;
        double refresh, preferred;
        GVariant *scales, *props;
        g_variant_get(mode, "(&siidd@ad@a{sv})", &id, &w, &h, &refresh, &preferred, &scales, &props);
        gboolean current = FALSE;
        g_variant_lookup(props, "is-current", "b", &current);
        g_variant_unref(scales);
        g_variant_unref(props);
        g_variant_unref(mode);
        if (current) {
            *width = w;
            *height = h;
            return TRUE;
        }
    }
    return FALSE;
}

int deck_gv_monitors(GVariant *state, deck_monitor *out, int max) {
    if (!g_variant_is_of_type(state, G_VARIANT_TYPE("(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})")))
        return -1;
    GVariant *monitors = g_variant_get_child_value(state, 1);
    GVariant *logical = g_variant_get_child_value(state, 2);
    int count = 0;
    GVariantIter logical_iter;
    GVariant *entry;
    g_variant_iter_init(&logical_iter, logical);
    while (count < max && (entry = g_variant_iter_next_value(&logical_iter))) {
        int32_t x, y;
        double scale;
        uint32_t transform;
        gboolean primary;
        GVariant *specs, *props;
        g_variant_get(entry, "(iidub@a(ssss)@a{sv})", &x, &y, &scale, &transform, &primary, &specs, &props);
        // The logical monitor's first physical monitor gives the connector and the mode's pixel size.
        const char *connector = NULL;
        if (g_variant_n_children(specs) > 0) g_variant_get_child(specs, 0, "(&s&s&s&s)", &connector, NULL, NULL, NULL);
        GVariantIter monitor_iter;
        GVariant *monitor;
        g_variant_iter_init(&monitor_iter, monitors);
        while (connector && (monitor = g_variant_iter_next_value(&monitor_iter))) {
            const char *name;
            GVariant *modes;
            g_variant_get_child(monitor, 0, "(&s&s&s&s)", &name, NULL, NULL, NULL);
            modes = g_variant_get_child_value(monitor, 1);
            int32_t width = 0, height = 0;
            if (strcmp(name, connector) == 0 && current_mode(modes, &width, &height)) {
                deck_monitor *slot = &out[count++];
                g_strlcpy(slot->connector, connector, sizeof slot->connector);
                slot->x = x;
                slot->y = y;
                // A rotated monitor shows its mode turned by a quarter (transforms 1, 3, 5, 7).
                slot->width = (transform & 1) ? height : width;
                slot->height = (transform & 1) ? width : height;
                slot->scale = scale;
            }
            g_variant_unref(modes);
            g_variant_unref(monitor);
        }
        g_variant_unref(specs);
        g_variant_unref(props);
        g_variant_unref(entry);
    }
    g_variant_unref(monitors);
    g_variant_unref(logical);
    return count;
}

uint32_t deck_gv_layout_mode(GVariant *state) {
    if (!g_variant_is_of_type(state, G_VARIANT_TYPE("(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})")))
        return 0;
    GVariant *props = g_variant_get_child_value(state, 3);
    uint32_t mode = 0;
    g_variant_lookup(props, "layout-mode", "u", &mode);
    g_variant_unref(props);
    return mode;
}

/// The monitor entry (`((ssss)a(siiddada{sv})a{sv})`) of `connector`, or NULL; a new reference.
static GVariant *monitor_named(GVariant *state, const char *connector) {
    GVariant *monitors = g_variant_get_child_value(state, 1), *found = NULL, *monitor;
    GVariantIter iter;
    g_variant_iter_init(&iter, monitors);
    while (!found && (monitor = g_variant_iter_next_value(&iter))) {
        const char *name;
        g_variant_get_child(monitor, 0, "(&s&s&s&s)", &name, NULL, NULL, NULL);
        if (strcmp(name, connector) == 0) found = g_variant_ref(monitor);
        g_variant_unref(monitor);
    }
    g_variant_unref(monitors);
    return found;
}

/// The current mode (`(siiddada{sv})`) of a monitor entry, or NULL; a new reference.
static GVariant *current_mode_of(GVariant *monitor) {
    GVariant *modes = g_variant_get_child_value(monitor, 1), *found = NULL, *mode;
    GVariantIter iter;
    g_variant_iter_init(&iter, modes);
    while (!found && (mode = g_variant_iter_next_value(&iter))) {
        GVariant *props = g_variant_get_child_value(mode, 6);
        gboolean current = FALSE;
        g_variant_lookup(props, "is-current", "b", &current);
        if (current) found = g_variant_ref(mode);
        g_variant_unref(props);
        g_variant_unref(mode);
    }
    g_variant_unref(modes);
    return found;
}

int deck_gv_supported_scales(GVariant *state, const char *connector, double *out, int max) {
    if (!g_variant_is_of_type(state, G_VARIANT_TYPE("(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})")))
        return 0;
    GVariant *monitor = monitor_named(state, connector);
    if (!monitor) return 0;
    GVariant *mode = current_mode_of(monitor);
    g_variant_unref(monitor);
    if (!mode) return 0;
    GVariant *scales = g_variant_get_child_value(mode, 5);
    gsize count = 0;
    const double *values = g_variant_get_fixed_array(scales, &count, sizeof(double));
    int n = 0;
    for (gsize i = 0; i < count && n < max; i++) out[n++] = values[i];
    g_variant_unref(scales);
    g_variant_unref(mode);
    return n;
}

GVariant *deck_gv_apply_monitors(GVariant *state, const deck_placement *placements, int count) {
    if (!g_variant_is_of_type(state, G_VARIANT_TYPE("(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})")))
        return NULL;
    uint32_t serial;
    g_variant_get_child(state, 0, "u", &serial);
    GVariant *logical = g_variant_get_child_value(state, 2);
    GVariantBuilder configs;
    g_variant_builder_init(&configs, G_VARIANT_TYPE("a(iiduba(ssa{sv}))"));
    GVariantIter iter;
    GVariant *entry;
    gboolean complete = TRUE;
    g_variant_iter_init(&iter, logical);
    while ((entry = g_variant_iter_next_value(&iter))) {
        int32_t x, y;
        double scale;
        uint32_t transform;
        gboolean primary;
        GVariant *specs, *props;
        g_variant_get(entry, "(iidub@a(ssss)@a{sv})", &x, &y, &scale, &transform, &primary, &specs, &props);
        GVariantBuilder monitors;
        g_variant_builder_init(&monitors, G_VARIANT_TYPE("a(ssa{sv})"));
        GVariantIter spec_iter;
        const char *connector;
        gboolean first = TRUE;
        g_variant_iter_init(&spec_iter, specs);
        while (g_variant_iter_next(&spec_iter, "(&s&s&s&s)", &connector, NULL, NULL, NULL)) {
            if (first) {
                for (int i = 0; i < count; i++) {
                    if (strcmp(placements[i].connector, connector) != 0) continue;
                    x = placements[i].x;
                    y = placements[i].y;
                    scale = placements[i].scale;
                }
                first = FALSE;
            }
            GVariant *monitor = monitor_named(state, connector);
            GVariant *mode = monitor ? current_mode_of(monitor) : NULL;
            if (mode) {
                const char *id;
                g_variant_get_child(mode, 0, "&s", &id);
                g_variant_builder_add(&monitors, "(ss@a{sv})", connector, id,
                    g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0));
                g_variant_unref(mode);
            } else {
                complete = FALSE;
            }
            if (monitor) g_variant_unref(monitor);
        }
        g_variant_builder_add(&configs, "(iidub@a(ssa{sv}))", x, y, scale, transform, primary,
            g_variant_builder_end(&monitors));
        g_variant_unref(specs);
        g_variant_unref(props);
        g_variant_unref(entry);
    }
    g_variant_unref(logical);
    GVariant *configured = g_variant_builder_end(&configs);
    if (!complete) {
        g_variant_unref(g_variant_ref_sink(configured));
        return NULL;
    }
    return g_variant_new("(uu@a(iiduba(ssa{sv}))@a{sv})", serial, 1u, configured,
        g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0));
}

const struct spa_pod *deck_pw_video_format(uint8_t *buffer, uint32_t size, uint32_t max_fps) {
    return deck_pw_video_format_sized(buffer, size, max_fps, 0, 0);
}

const struct spa_pod *deck_pw_video_format_sized(uint8_t *buffer, uint32_t size, uint32_t max_fps, uint32_t width,
                                                 uint32_t height) {
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_rectangle default_size = SPA_RECTANGLE(1280, 720), min_size = SPA_RECTANGLE(1, 1),
                         max_size = SPA_RECTANGLE(16384, 16384), fixed = SPA_RECTANGLE(width, height);
    struct spa_fraction none = SPA_FRACTION(0, 1), fps = SPA_FRACTION(max_fps, 1), one = SPA_FRACTION(1, 1);
    struct spa_pod_frame frame;
    spa_pod_builder_push_object(&b, &frame, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
    spa_pod_builder_add(&b,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(3, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx,
            SPA_VIDEO_FORMAT_BGRA), 0);
    if (width > 0 && height > 0)
        spa_pod_builder_add(&b, SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&fixed), 0);
    else
        spa_pod_builder_add(&b,
            SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&default_size, &min_size, &max_size), 0);
    spa_pod_builder_add(&b,
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&none),
        // Mutter paces itself by the most frames a second we take (what GNOME Remote Desktop asks for too).
        SPA_FORMAT_VIDEO_maxFramerate, SPA_POD_CHOICE_RANGE_Fraction(&fps, &one, &fps), 0);
    return spa_pod_builder_pop(&b, &frame);
}

#define DECK_CURSOR_META_SIZE(w, h) \
    ((int)(sizeof(struct spa_meta_cursor) + sizeof(struct spa_meta_bitmap) + (w) * (h) * 4))

uint32_t deck_pw_buffer_params(uint8_t *buffer, uint32_t size, const struct spa_pod **params) {
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    params[0] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
        SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16),
        SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    // A fixed cursor size fails to negotiate with Mutter: offer a range of bitmap sizes.
    params[2] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Cursor),
        SPA_PARAM_META_size, SPA_POD_CHOICE_RANGE_Int(DECK_CURSOR_META_SIZE(64, 64), DECK_CURSOR_META_SIZE(1, 1),
            DECK_CURSOR_META_SIZE(512, 512)));
    return (params[0] && params[1] && params[2]) ? 3 : 0;
}

int deck_pw_parse_format(const struct spa_pod *param, uint32_t *width, uint32_t *height, int *format) {
    uint32_t media_type, media_subtype;
    if (!param || spa_format_parse(param, &media_type, &media_subtype) < 0) return -1;
    if (media_type != SPA_MEDIA_TYPE_video || media_subtype != SPA_MEDIA_SUBTYPE_raw) return -1;
    struct spa_video_info_raw info;
    memset(&info, 0, sizeof info);
    if (spa_format_video_raw_parse(param, &info) < 0) return -1;
    *width = info.size.width;
    *height = info.size.height;
    *format = info.format == SPA_VIDEO_FORMAT_BGRx   ? DECK_PW_FORMAT_BGRX
              : info.format == SPA_VIDEO_FORMAT_BGRA ? DECK_PW_FORMAT_BGRA
                                                     : DECK_PW_FORMAT_OTHER;
    return 0;
}

struct spa_source *deck_pw_timer_new(struct pw_loop *loop, void (*callback)(void *data, uint64_t expirations),
                                     void *data) {
    return pw_loop_add_timer(loop, callback, data);
}

void deck_pw_timer_arm(struct pw_loop *loop, struct spa_source *timer, uint64_t nanoseconds) {
    struct timespec value = {(time_t)(nanoseconds / 1000000000u), (long)(nanoseconds % 1000000000u)};
    struct timespec interval = {0, 0};
    pw_loop_update_timer(loop, timer, &value, &interval, false);
}

void deck_pw_timer_free(struct pw_loop *loop, struct spa_source *timer) { pw_loop_destroy_source(loop, timer); }

uint64_t deck_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

int deck_thread_is_named(const char *name) {
    char current[16] = {0};
    if (pthread_getname_np(pthread_self(), current, sizeof current) != 0) return 0;
    return strncmp(current, name, sizeof current - 1) == 0;
}

int deck_pw_cursor(struct spa_buffer *buffer, deck_cursor *out) {
    struct spa_meta_cursor *cursor = spa_buffer_find_meta_data(buffer, SPA_META_Cursor, sizeof *cursor);
    if (!cursor || !spa_meta_cursor_is_valid(cursor)) return 0;
    out->x = cursor->position.x;
    out->y = cursor->position.y;
    int news = DECK_CURSOR_MOVED;
    if (cursor->bitmap_offset >= sizeof *cursor) {
        struct spa_meta_bitmap *bitmap = SPA_PTROFF(cursor, cursor->bitmap_offset, struct spa_meta_bitmap);
        if (bitmap->format != 0) {
            news |= DECK_CURSOR_NEW_BITMAP;
            out->hot_x = cursor->hotspot.x;
            out->hot_y = cursor->hotspot.y;
            int usable = bitmap->format == SPA_VIDEO_FORMAT_RGBA && bitmap->offset >= sizeof *bitmap &&
                         bitmap->size.width > 0 && bitmap->size.height > 0 && bitmap->stride >= (int32_t)bitmap->size.width * 4;
            out->width = usable ? bitmap->size.width : 0;
            out->height = usable ? bitmap->size.height : 0;
            out->stride = usable ? bitmap->stride : 0;
            out->pixels = usable ? SPA_PTROFF(bitmap, bitmap->offset, const uint8_t) : NULL;
        }
    }
    return news;
}

GVariant *deck_gv_portal_create_session(const char *handle_token, const char *session_token) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(handle_token));
    g_variant_builder_add(&options, "{sv}", "session_handle_token", g_variant_new_string(session_token));
    return g_variant_new("(a{sv})", &options);
}

/// persist_mode 2 (until revoked) and the saved restore token, when `persist`.
static void add_persistence(GVariantBuilder *options, gboolean persist, const char *restore_token) {
    if (!persist) return;
    g_variant_builder_add(options, "{sv}", "persist_mode", g_variant_new_uint32(2));
    if (restore_token) g_variant_builder_add(options, "{sv}", "restore_token", g_variant_new_string(restore_token));
}

GVariant *deck_gv_portal_select_sources(const char *session, const char *handle_token, uint32_t types,
                                        uint32_t cursor_mode, gboolean persist, const char *restore_token) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(handle_token));
    g_variant_builder_add(&options, "{sv}", "types", g_variant_new_uint32(types));
    g_variant_builder_add(&options, "{sv}", "multiple", g_variant_new_boolean(FALSE));
    g_variant_builder_add(&options, "{sv}", "cursor_mode", g_variant_new_uint32(cursor_mode));
    add_persistence(&options, persist, restore_token);
    return g_variant_new("(oa{sv})", session, &options);
}

GVariant *deck_gv_portal_select_devices(const char *session, const char *handle_token, uint32_t types,
                                        gboolean persist, const char *restore_token) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(handle_token));
    g_variant_builder_add(&options, "{sv}", "types", g_variant_new_uint32(types));
    add_persistence(&options, persist, restore_token);
    return g_variant_new("(oa{sv})", session, &options);
}

GVariant *deck_gv_portal_motion(const char *session, uint32_t stream, double x, double y) {
    return g_variant_new("(o@a{sv}udd)", session, empty_dictionary(), stream, x, y);
}

GVariant *deck_gv_portal_button(const char *session, int32_t button, gboolean pressed) {
    return g_variant_new("(o@a{sv}iu)", session, empty_dictionary(), button, (uint32_t)(pressed ? 1 : 0));
}

GVariant *deck_gv_portal_axis_discrete(const char *session, uint32_t axis, int32_t steps) {
    return g_variant_new("(o@a{sv}ui)", session, empty_dictionary(), axis, steps);
}

GVariant *deck_gv_portal_keysym(const char *session, uint32_t keysym, gboolean pressed) {
    return g_variant_new("(o@a{sv}iu)", session, empty_dictionary(), (int32_t)keysym, (uint32_t)(pressed ? 1 : 0));
}

int deck_gv_lookup_uint32(GVariant *dictionary, const char *key, uint32_t *value) {
    if (!g_variant_is_of_type(dictionary, G_VARIANT_TYPE("a{sv}"))) return -1;
    return g_variant_lookup(dictionary, key, "u", value) ? 0 : -1;
}

GVariant *deck_gv_portal_start(const char *session, const char *handle_token) {
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(handle_token));
    return g_variant_new("(osa{sv})", session, "", &options);
}

GVariant *deck_gv_session_no_options(const char *session) {
    return g_variant_new("(o@a{sv})", session, empty_dictionary());
}

char *deck_gv_lookup_string(GVariant *dictionary, const char *key) {
    const char *value = NULL;
    if (!g_variant_is_of_type(dictionary, G_VARIANT_TYPE("a{sv}"))) return NULL;
    if (!g_variant_lookup(dictionary, key, "&s", &value) &&
        !g_variant_lookup(dictionary, key, "&o", &value)) return NULL;
    return g_strdup(value);
}

int deck_gv_first_stream(GVariant *results, uint32_t *node, int32_t *width, int32_t *height) {
    if (!g_variant_is_of_type(results, G_VARIANT_TYPE("a{sv}"))) return -1;
    GVariant *streams = g_variant_lookup_value(results, "streams", G_VARIANT_TYPE("a(ua{sv})"));
    if (!streams) return -1;
    int found = -1;
    if (g_variant_n_children(streams) > 0) {
        GVariant *properties;
        g_variant_get_child(streams, 0, "(u@a{sv})", node, &properties);
        *width = *height = 0;
        g_variant_lookup(properties, "size", "(ii)", width, height);
        g_variant_unref(properties);
        found = 0;
    }
    g_variant_unref(streams);
    return found;
}
