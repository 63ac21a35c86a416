// uinput device creation and evdev queries: their ioctl request numbers are _IOW/_IOR macros Swift cannot use.
#include "CDeckShim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// Opens `path` and sets up the device's identity (UI_DEV_SETUP needs kernel 4.5); -errno on failure.
static int open_device(const char *path, const char *name, uint16_t product) {
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.product = product;
    setup.id.version = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

// Sets a bit with `request` (UI_SET_EVBIT, UI_SET_KEYBIT…); 0, or -errno.
static int set_bit(int fd, unsigned long request, int bit) { return ioctl(fd, request, bit) < 0 ? -errno : 0; }

static int set_axis(int fd, uint16_t code, int32_t maximum) {
    struct uinput_abs_setup axis;
    memset(&axis, 0, sizeof axis);
    axis.code = code;
    axis.absinfo.minimum = 0;
    axis.absinfo.maximum = maximum;
    return ioctl(fd, UI_ABS_SETUP, &axis) < 0 ? -errno : 0;
}

// Creates the device set up on `fd`, or closes `fd`; the fd or -errno.
static int create(int fd, int error) {
    if (error == 0 && ioctl(fd, UI_DEV_CREATE) < 0) error = -errno;
    if (error == 0) return fd;
    close(fd);
    return error;
}

int deck_uinput_create_pointer(const char *path, const char *name, int32_t width, int32_t height) {
    if (width < 1 || height < 1) return -EINVAL;
    int fd = open_device(path, name, 1);
    if (fd < 0) return fd;
    int error = set_bit(fd, UI_SET_EVBIT, EV_KEY);
    for (int button = BTN_LEFT; error == 0 && button <= BTN_MIDDLE; button++) error = set_bit(fd, UI_SET_KEYBIT, button);
    if (error == 0) error = set_bit(fd, UI_SET_EVBIT, EV_ABS);
    if (error == 0) error = set_axis(fd, ABS_X, width - 1);
    if (error == 0) error = set_axis(fd, ABS_Y, height - 1);
    if (error == 0) error = set_bit(fd, UI_SET_EVBIT, EV_REL);
    const int wheels[] = {REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES};
    for (unsigned i = 0; error == 0 && i < sizeof wheels / sizeof wheels[0]; i++) error = set_bit(fd, UI_SET_RELBIT, wheels[i]);
    return create(fd, error);
}

int deck_uinput_create_keyboard(const char *path, const char *name) {
    int fd = open_device(path, name, 2);
    if (fd < 0) return fd;
    int error = set_bit(fd, UI_SET_EVBIT, EV_KEY);
    for (int key = KEY_ESC; error == 0 && key <= KEY_MICMUTE; key++) error = set_bit(fd, UI_SET_KEYBIT, key);
    return create(fd, error);
}

int deck_evdev_name(int fd, char *name, uint32_t size) {
    if (size == 0) return -EINVAL;
    int length = ioctl(fd, EVIOCGNAME(size), name);
    if (length < 0) return -errno;
    name[size - 1] = 0;
    return length;
}

int deck_evdev_bits(int fd, uint32_t type, uint8_t *bits, uint32_t size) {
    memset(bits, 0, size);
    int length = ioctl(fd, EVIOCGBIT(type, size), bits);
    return length < 0 ? -errno : length;
}

int deck_evdev_abs_range(int fd, uint32_t code, int32_t *minimum, int32_t *maximum) {
    struct input_absinfo info;
    if (ioctl(fd, EVIOCGABS(code), &info) < 0) return -errno;
    *minimum = info.minimum;
    *maximum = info.maximum;
    return 0;
}
