#pragma once
// The few GVariant and PipeWire/SPA calls Swift cannot make: variadic constructors (g_variant_new) and the SPA
// POD builder macros. Everything else is called from Swift directly. Every name starts with `deck_`.
#include <gio/gio.h>
#include <pipewire/pipewire.h>
#include <stdint.h>

// --- GVariant arguments of Mutter's D-Bus calls (floating references: the call takes them) ---

/// `(a{sv})` with no options.
GVariant *deck_gv_no_options(void);
/// ScreenCast.CreateSession's `(a{sv})`: {'remote-desktop-session-id': <id>}.
GVariant *deck_gv_screencast_options(const char *remote_desktop_session_id);
/// ScreenCast.Session.RecordMonitor's `(sa{sv})`: the connector and {'cursor-mode': <uint32 mode>}.
GVariant *deck_gv_record_monitor(const char *connector, uint32_t cursor_mode);
/// ScreenCast.Session.RecordVirtual's `(a{sv})`: {'cursor-mode': <uint32 mode>}.
GVariant *deck_gv_record_virtual(uint32_t cursor_mode);
/// `(ss)`: org.freedesktop.DBus.Properties.Get's interface and property.
GVariant *deck_gv_two_strings(const char *first, const char *second);
/// `(s)`.
GVariant *deck_gv_string(const char *value);
/// `(sdd)`: NotifyPointerMotionAbsolute's stream and position.
GVariant *deck_gv_motion(const char *stream, double x, double y);
/// `(ib)`: NotifyPointerButton's evdev button code and state.
GVariant *deck_gv_button(int32_t button, gboolean pressed);
/// `(ui)`: NotifyPointerAxisDiscrete's axis and steps.
GVariant *deck_gv_axis_discrete(uint32_t axis, int32_t steps);
/// `(ub)`: NotifyKeyboardKeysym's keysym and state.
GVariant *deck_gv_keysym(uint32_t keysym, gboolean pressed);

/// One monitor of DisplayConfig.GetCurrentState: its connector and where its logical monitor lies, in pixels.
typedef struct {
    char connector[64];
    int32_t x, y, width, height;
    double scale;
} deck_monitor;

/// Reads up to `max` monitors that are on (have a current mode and a logical monitor) from GetCurrentState's
/// reply; returns how many, or -1 when the reply does not have the documented shape.
int deck_gv_monitors(GVariant *state, deck_monitor *out, int max);
/// GetCurrentState's `layout-mode` property: 1 logical (a monitor's layout size is its mode divided by its scale),
/// 2 physical (layout size = mode size); 0 when it is missing.
uint32_t deck_gv_layout_mode(GVariant *state);
/// The scales `connector`'s current mode supports (GetCurrentState); returns how many (at most `max`), 0 if none.
int deck_gv_supported_scales(GVariant *state, const char *connector, double *out, int max);
/// Where a logical monitor goes in an ApplyMonitorsConfig: the one whose first monitor is `connector`.
typedef struct {
    char connector[64];
    int32_t x, y;
    double scale;
} deck_placement;
/// ApplyMonitorsConfig's `(uua(iiduba(ssa{sv}))a{sv})` for the state's serial, method 1 (temporary): every logical
/// monitor of `state` as it is (its monitors in their current modes), except those `placements` name, which get the
/// placement's position and scale. NULL when the state has an unknown shape.
GVariant *deck_gv_apply_monitors(GVariant *state, const deck_placement *placements, int count);

// --- PipeWire / SPA ---

/// Pixel layouts the shim reports.
enum { DECK_PW_FORMAT_OTHER = 0, DECK_PW_FORMAT_BGRX = 1, DECK_PW_FORMAT_BGRA = 2 };

/// The EnumFormat we accept (raw video, BGRx or BGRA, any size, at most `max_fps` frames a second), built in
/// `buffer`; returns the POD (inside `buffer`), or NULL when `size` is too small.
const struct spa_pod *deck_pw_video_format(uint8_t *buffer, uint32_t size, uint32_t max_fps);
/// The same with exactly `width`×`height` (both 0: any size). A producer whose size follows its consumer's (Mutter's
/// RecordVirtual) fixes the size to this.
const struct spa_pod *deck_pw_video_format_sized(uint8_t *buffer, uint32_t size, uint32_t max_fps, uint32_t width,
                                                 uint32_t height);
/// The Buffers param (mapped memory: MemFd or MemPtr), the Header meta and the Cursor meta (a range of bitmap
/// sizes), built in `buffer`; fills `params` (room for 3) and returns the count.
uint32_t deck_pw_buffer_params(uint8_t *buffer, uint32_t size, const struct spa_pod **params);
/// Reads a negotiated Format param: returns 0 and the size and layout, or -1 when it is not raw video.
int deck_pw_parse_format(const struct spa_pod *param, uint32_t *width, uint32_t *height, int *format);

/// A timer on `loop` that calls `callback(data)` on the loop's thread; NULL on failure.
struct spa_source *deck_pw_timer_new(struct pw_loop *loop, void (*callback)(void *data, uint64_t expirations), void *data);
/// Arms the timer to fire once after `nanoseconds` (at least 1); 0 disarms it.
void deck_pw_timer_arm(struct pw_loop *loop, struct spa_source *timer, uint64_t nanoseconds);
/// Removes and frees the timer.
void deck_pw_timer_free(struct pw_loop *loop, struct spa_source *timer);

/// The monotonic clock in nanoseconds (what the pacing compares).
uint64_t deck_monotonic_ns(void);

/// Whether the calling thread's name (15 characters at most) is `name`'s first 15.
int deck_thread_is_named(const char *name);

/// What a buffer's cursor metadata says (SPA_META_Cursor).
typedef struct {
    /// Where the pointer is, in the stream's pixels; the bitmap's hotspot.
    int32_t x, y, hot_x, hot_y;
    /// A new picture: premultiplied RGBA rows (`pixels` NULL: the cursor is now invisible).
    uint32_t width, height;
    int32_t stride;
    const uint8_t *pixels;
} deck_cursor;

enum { DECK_CURSOR_MOVED = 1, DECK_CURSOR_NEW_BITMAP = 2 };

/// Reads the buffer's cursor metadata: returns DECK_CURSOR_* bits (0: no news, keep the last cursor). A bitmap in
/// a format other than RGBA is reported as invisible.
int deck_pw_cursor(struct spa_buffer *buffer, deck_cursor *out);

// --- The ScreenCast portal (org.freedesktop.portal.ScreenCast, version 4) ---

/// CreateSession's `(a{sv})`: handle_token and session_handle_token.
GVariant *deck_gv_portal_create_session(const char *handle_token, const char *session_token);
/// SelectSources' `(oa{sv})`: one source of `types` (1 monitor, 4 a virtual monitor the portal makes),
/// `cursor_mode`; with `persist`, persist_mode 2 (until revoked) and the restore token of an earlier start when there
/// is one (NULL: none). A remote-desktop session persists through SelectDevices instead (`persist` false).
GVariant *deck_gv_portal_select_sources(const char *session, const char *handle_token, uint32_t types,
                                        uint32_t cursor_mode, gboolean persist, const char *restore_token);
/// The RemoteDesktop portal's SelectDevices `(oa{sv})`: device `types` (1 keyboard, 2 pointer); with `persist`
/// (version 2 and later), persist_mode 2 and the restore token when there is one.
GVariant *deck_gv_portal_select_devices(const char *session, const char *handle_token, uint32_t types,
                                        gboolean persist, const char *restore_token);
/// The RemoteDesktop portal's input calls, each `(oa{sv}…)` with no options: NotifyPointerMotionAbsolute's
/// `(udd)` stream node and position, NotifyPointerButton's `(iu)`, NotifyPointerAxisDiscrete's `(ui)` and
/// NotifyKeyboardKeysym's `(iu)`.
GVariant *deck_gv_portal_motion(const char *session, uint32_t stream, double x, double y);
GVariant *deck_gv_portal_button(const char *session, int32_t button, gboolean pressed);
GVariant *deck_gv_portal_axis_discrete(const char *session, uint32_t axis, int32_t steps);
GVariant *deck_gv_portal_keysym(const char *session, uint32_t keysym, gboolean pressed);
/// The `u` at `key` of an `a{sv}` dictionary into `value`; 0 when there is one.
int deck_gv_lookup_uint32(GVariant *dictionary, const char *key, uint32_t *value);
/// Start's `(osa{sv})`: no parent window.
GVariant *deck_gv_portal_start(const char *session, const char *handle_token);
/// `(oa{sv})` with no options (OpenPipeWireRemote).
GVariant *deck_gv_session_no_options(const char *session);
/// The string at `key` of an `a{sv}` dictionary, newly allocated (g_free it), or NULL.
char *deck_gv_lookup_string(GVariant *dictionary, const char *key);
/// The first stream of Start's results (`streams`: a(ua{sv})): its PipeWire node and size; 0 when there is one.
int deck_gv_first_stream(GVariant *results, uint32_t *node, int32_t *width, int32_t *height);

// --- uinput (the kernel's virtual input devices) and evdev queries; the ioctl numbers are macros ---
// linux/input.h gives Swift `struct input_event` and the EV_/KEY_/BTN_/ABS_/REL_/SYN_ codes.
#include <linux/input.h>

/// Opens the uinput node at `path` and creates an absolute pointer named `name`: BTN_LEFT/RIGHT/MIDDLE, ABS_X in
/// 0…width−1 and ABS_Y in 0…height−1, REL_WHEEL/REL_HWHEEL and their hi-res twins, on BUS_VIRTUAL. Returns the
/// open fd (closing it destroys the device), or −errno.
int deck_uinput_create_pointer(const char *path, const char *name, int32_t width, int32_t height);
/// The same for a keyboard: EV_KEY with the key codes 1…248 (KEY_ESC…KEY_MICMUTE), no auto-repeat.
int deck_uinput_create_keyboard(const char *path, const char *name);
/// EVIOCGNAME: the device's name into `name` (NUL-terminated); the length, or −errno.
int deck_evdev_name(int fd, char *name, uint32_t size);
/// EVIOCGBIT: the bitmask of the codes of event type `type` (0: of the event types); its length, or −errno.
int deck_evdev_bits(int fd, uint32_t type, uint8_t *bits, uint32_t size);
/// EVIOCGABS: the range of absolute axis `code`; 0, or −errno.
int deck_evdev_abs_range(int fd, uint32_t code, int32_t *minimum, int32_t *maximum);

// glibc's allocator arenas (mallopt is declared in malloc.h, which Swift's Glibc module leaves out): at most
// `count`; returns mallopt's 1 on success.
#include <malloc.h>
static inline int deck_bound_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
// A fixed threshold above which allocations are mapped and unmapped on their own (mallopt also turns glibc's
// rising threshold off); 1 on success.
static inline int deck_fix_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
