// The console's input through libinput: see include/input.h.
#define _GNU_SOURCE
#include "input.h"
#include "failure.h"

#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <libudev.h>
#include <linux/input.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct ovs_input {
    struct udev *udev;
    struct libinput *li;
    uint32_t next_device;
    struct libinput_device *added;
};

// Read only, as SDL opened them: the kiosk unit allows input devices for reading only
// (DeviceAllow=char-input r), and nothing here writes to one (keyboard LEDs stay as
// they are).
static int open_restricted(const char *path, int flags, void *user_data) {
    (void)flags;
    (void)user_data;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static void close_restricted(int fd, void *user_data) {
    (void)user_data;
    close(fd);
}

static const struct libinput_interface interface = {
    .open_restricted = open_restricted,
    .close_restricted = close_restricted,
};

// `text`, and the system's words for `error` where there is one (failure.h).
static void say(char *why, size_t size, const char *text, int error) {
    ovs_fail(why, size > INT32_MAX ? INT32_MAX : (int)size, "%s%s%s", text, error ? ": " : "", error ? strerror(error) : "");
}

struct ovs_input *ovs_input_open_udev(const char *seat, char *why, size_t why_size) {
    struct ovs_input *input = calloc(1, sizeof *input);
    if (!input) { say(why, why_size, "no memory", ENOMEM); return NULL; }
    input->udev = udev_new();
    if (!input->udev) { say(why, why_size, "udev_new failed", errno); free(input); return NULL; }
    input->li = libinput_udev_create_context(&interface, input, input->udev);
    if (!input->li) { say(why, why_size, "libinput_udev_create_context failed", 0); ovs_input_close(input); return NULL; }
    if (libinput_udev_assign_seat(input->li, seat) != 0) {
        say(why, why_size, "libinput could not take the udev seat (is udev running?)", 0);
        ovs_input_close(input);
        return NULL;
    }
    return input;
}

struct ovs_input *ovs_input_open_paths(const char *const *paths, int count, char *why, size_t why_size) {
    struct ovs_input *input = calloc(1, sizeof *input);
    if (!input) { say(why, why_size, "no memory", ENOMEM); return NULL; }
    input->li = libinput_path_create_context(&interface, input);
    if (!input->li) { say(why, why_size, "libinput_path_create_context failed", 0); free(input); return NULL; }
    for (int i = 0; i < count; i++) {
        if (!libinput_path_add_device(input->li, paths[i])) {
            char text[160];
            snprintf(text, sizeof text, "libinput cannot take %s", paths[i]);
            say(why, why_size, text, 0);
            ovs_input_close(input);
            return NULL;
        }
    }
    return input;
}

void ovs_input_close(struct ovs_input *input) {
    if (!input) return;
    if (input->added) libinput_device_unref(input->added);
    if (input->li) libinput_unref(input->li);
    if (input->udev) udev_unref(input->udev);
    free(input);
}

int ovs_input_fd(const struct ovs_input *input) { return libinput_get_fd(input->li); }

int ovs_input_dispatch(struct ovs_input *input) { return libinput_dispatch(input->li); }

void ovs_input_suspend(struct ovs_input *input, int suspended) {
    if (suspended) libinput_suspend(input->li);
    else libinput_resume(input->li);
}

static uint32_t device_number(struct libinput_device *device) {
    return (uint32_t)(uintptr_t)libinput_device_get_user_data(device);
}

// Coordinates in 0…1 of the range: libinput's transformed coordinate for a width of
// 2^20, divided back (the calibration matrix is applied before).
static const uint32_t span = 1u << 20;

static int touch(struct libinput_event *event, enum ovs_input_kind kind, struct ovs_input_event *out) {
    struct libinput_event_touch *t = libinput_event_get_touch_event(event);
    out->kind = kind;
    out->time_usec = libinput_event_touch_get_time_usec(t);
    out->slot = libinput_event_touch_get_seat_slot(t);
    if (kind == OVS_INPUT_TOUCH_DOWN || kind == OVS_INPUT_TOUCH_MOTION) {
        out->x = libinput_event_touch_get_x_transformed(t, span) / span;
        out->y = libinput_event_touch_get_y_transformed(t, span) / span;
    }
    return 1;
}

static int pointer(struct libinput_event *event, enum libinput_event_type type, struct ovs_input_event *out) {
    struct libinput_event_pointer *p = libinput_event_get_pointer_event(event);
    out->time_usec = libinput_event_pointer_get_time_usec(p);
    switch (type) {
    case LIBINPUT_EVENT_POINTER_MOTION:
        out->kind = OVS_INPUT_POINTER_MOTION;
        out->x = libinput_event_pointer_get_dx(p);
        out->y = libinput_event_pointer_get_dy(p);
        return 1;
    case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
        out->kind = OVS_INPUT_POINTER_ABSOLUTE;
        out->x = libinput_event_pointer_get_absolute_x_transformed(p, span) / span;
        out->y = libinput_event_pointer_get_absolute_y_transformed(p, span) / span;
        return 1;
    case LIBINPUT_EVENT_POINTER_BUTTON:
        out->kind = OVS_INPUT_POINTER_BUTTON;
        out->code = libinput_event_pointer_get_button(p);
        out->pressed = libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED;
        return 1;
    case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
        if (!libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)) return 0;
        out->kind = OVS_INPUT_POINTER_WHEEL;
        out->y = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) / 120.0;
        return 1;
    default:
        return 0;
    }
}

// A pen display's stylus: only while its tip is on the glass (a hovering pen moves
// nothing), at libinput's screen-mapped coordinates, as a touch's.
static int pen(struct libinput_event *event, enum libinput_event_type type, struct ovs_input_event *out) {
    struct libinput_event_tablet_tool *t = libinput_event_get_tablet_tool_event(event);
    int down = libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN;
    if (type == LIBINPUT_EVENT_TABLET_TOOL_TIP) out->kind = down ? OVS_INPUT_PEN_DOWN : OVS_INPUT_PEN_UP;
    else if (type == LIBINPUT_EVENT_TABLET_TOOL_AXIS && down) out->kind = OVS_INPUT_PEN_MOTION;
    else return 0;
    out->time_usec = libinput_event_tablet_tool_get_time_usec(t);
    out->x = libinput_event_tablet_tool_get_x_transformed(t, span) / span;
    out->y = libinput_event_tablet_tool_get_y_transformed(t, span) / span;
    return 1;
}

// One libinput event flattened into `out`; 0 for one of no use here.
static int flatten(struct ovs_input *input, struct libinput_event *event, struct ovs_input_event *out) {
    enum libinput_event_type type = libinput_event_get_type(event);
    struct libinput_device *device = libinput_event_get_device(event);
    memset(out, 0, sizeof *out);
    switch (type) {
    case LIBINPUT_EVENT_DEVICE_ADDED:
        libinput_device_set_user_data(device, (void *)(uintptr_t)++input->next_device);
        if (input->added) libinput_device_unref(input->added);
        input->added = libinput_device_ref(device);
        out->kind = OVS_INPUT_DEVICE_ADDED;
        break;
    case LIBINPUT_EVENT_DEVICE_REMOVED: out->kind = OVS_INPUT_DEVICE_REMOVED; break;
    case LIBINPUT_EVENT_TOUCH_DOWN: touch(event, OVS_INPUT_TOUCH_DOWN, out); break;
    case LIBINPUT_EVENT_TOUCH_MOTION: touch(event, OVS_INPUT_TOUCH_MOTION, out); break;
    case LIBINPUT_EVENT_TOUCH_UP: touch(event, OVS_INPUT_TOUCH_UP, out); break;
    case LIBINPUT_EVENT_TOUCH_CANCEL: touch(event, OVS_INPUT_TOUCH_CANCEL, out); break;
    case LIBINPUT_EVENT_KEYBOARD_KEY: {
        struct libinput_event_keyboard *k = libinput_event_get_keyboard_event(event);
        out->kind = OVS_INPUT_KEY;
        out->time_usec = libinput_event_keyboard_get_time_usec(k);
        out->code = libinput_event_keyboard_get_key(k);
        out->pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED;
        break;
    }
    case LIBINPUT_EVENT_POINTER_MOTION:
    case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
    case LIBINPUT_EVENT_POINTER_BUTTON:
    case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
        if (!pointer(event, type, out)) return 0;
        break;
    case LIBINPUT_EVENT_TABLET_TOOL_TIP:
    case LIBINPUT_EVENT_TABLET_TOOL_AXIS:
        if (!pen(event, type, out)) return 0;
        break;
    default:
        return 0;
    }
    out->device = device_number(device);
    return 1;
}

int ovs_input_next(struct ovs_input *input, struct ovs_input_event *out) {
    struct libinput_event *event;
    while ((event = libinput_get_event(input->li))) {
        int useful = flatten(input, event, out);
        libinput_event_destroy(event);
        if (useful) return 1;
    }
    return 0;
}

// The axes' ranges, read from the node itself (libinput keeps them to itself).
static void ranges(const char *node, struct ovs_input_device *out) {
    int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    unsigned long bits[(ABS_CNT + 8 * sizeof(long) - 1) / (8 * sizeof(long))] = {0};
    if (ioctl(fd, EVIOCGBIT(EV_ABS, sizeof bits), bits) >= 0 && (bits[0] & (1ul << ABS_X))) {
        struct input_absinfo x, y;
        if (ioctl(fd, EVIOCGABS(ABS_X), &x) == 0 && ioctl(fd, EVIOCGABS(ABS_Y), &y) == 0) {
            out->absolute = 1;
            out->min_x = x.minimum; out->max_x = x.maximum;
            out->min_y = y.minimum; out->max_y = y.maximum;
        }
    }
    close(fd);
}

void ovs_input_added_device(const struct ovs_input *input, struct ovs_input_device *out) {
    memset(out, 0, sizeof *out);
    struct libinput_device *device = input->added;
    if (!device) return;
    snprintf(out->name, sizeof out->name, "%s", libinput_device_get_name(device));
    out->touch = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH);
    out->pointer = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER);
    out->keyboard = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD);
    out->pen = libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL);
    if (out->touch) {
        int count = libinput_device_touch_get_touch_count(device);
        out->touch_count = count > 0 ? count : 0;
    }
    double w = 0, h = 0;
    if (libinput_device_get_size(device, &w, &h) == 0) { out->width_mm = w; out->height_mm = h; }
    float matrix[6];
    if (libinput_device_config_calibration_get_matrix(device, matrix)) {
        static const float identity[6] = {1, 0, 0, 0, 1, 0};
        out->calibrated = memcmp(matrix, identity, sizeof identity) != 0;
    }
    struct udev_device *udev = libinput_device_get_udev_device(device);
    const char *node = udev ? udev_device_get_devnode(udev) : NULL;
    if (node) {
        snprintf(out->node, sizeof out->node, "%s", node);
        ranges(node, out);
    }
    if (udev) udev_device_unref(udev);
}
