#ifndef OVS_INPUT_H
#define OVS_INPUT_H

#include <stddef.h>
#include <stdint.h>
// KEY_* and BTN_* for the Swift side.
#include <linux/input-event-codes.h>

/// The console's input through libinput (Debian's libinput10 over libudev), as Qt's
/// libinput plugin and Wayland compositors read it: touch panels (multitouch and
/// single-touch), pointers (absolute ones scaled to the screen), wheels and keys, with
/// the kernel's time on every event and udev's hot-plug and calibration matrix.
/// Events come out flattened into a value (`ovs_input_event`) so the Swift side never
/// touches libinput's objects.

struct ovs_input;

enum ovs_input_kind {
    OVS_INPUT_NONE = 0,
    OVS_INPUT_DEVICE_ADDED,
    OVS_INPUT_DEVICE_REMOVED,
    OVS_INPUT_TOUCH_DOWN,
    OVS_INPUT_TOUCH_MOTION,
    OVS_INPUT_TOUCH_UP,
    OVS_INPUT_TOUCH_CANCEL,
    /// `x`, `y`: the move in libinput's pixel-like units (a relative mouse).
    OVS_INPUT_POINTER_MOTION,
    /// `x`, `y`: 0…1 across the device's range (an absolute pointer: a USB HID panel).
    OVS_INPUT_POINTER_ABSOLUTE,
    /// `code`: BTN_*, `pressed`.
    OVS_INPUT_POINTER_BUTTON,
    /// `y`: wheel notches, positive down (towards the user).
    OVS_INPUT_POINTER_WHEEL,
    /// `code`: KEY_*, `pressed`.
    OVS_INPUT_KEY,
    /// A pen display's stylus (libinput's tablet tool on a screen-mapped tablet): its tip
    /// touching the glass, moving on it (`x`, `y`: 0…1 across the tablet, as a touch's),
    /// and lifted. A pen only hovering is passed over: it is not touching the list.
    OVS_INPUT_PEN_DOWN,
    OVS_INPUT_PEN_MOTION,
    OVS_INPUT_PEN_UP,
};

struct ovs_input_event {
    enum ovs_input_kind kind;
    /// The kernel's time of the event, CLOCK_MONOTONIC microseconds.
    uint64_t time_usec;
    /// Touch: the seat-wide slot (unique among the fingers down on the seat).
    int32_t slot;
    /// Touch: 0…1 across the panel (after the udev calibration matrix); see the kinds.
    double x, y;
    uint32_t code;
    int32_t pressed;
    /// Which device (the same number from its DEVICE_ADDED to its DEVICE_REMOVED).
    uint32_t device;
};

/// What a device is, for the one line each gets at DEVICE_ADDED.
struct ovs_input_device {
    char name[96];
    char node[40];
    int touch, pointer, keyboard;
    /// A tablet with a tool (a pen display: libinput's LIBINPUT_DEVICE_CAP_TABLET_TOOL).
    int pen;
    /// Touch points the panel reports at once (1: single-touch; 0: unknown).
    int touch_count;
    /// Whether ABS_X is among its axes (an absolute pointer, a touch panel).
    int absolute;
    int min_x, max_x, min_y, max_y;
    /// Millimetres, where the kernel knows the resolution (else 0).
    double width_mm, height_mm;
    /// Whether a calibration matrix other than the identity is applied (udev's
    /// LIBINPUT_CALIBRATION_MATRIX).
    int calibrated;
};

/// libinput over udev on `seat` ("seat0"): every input device of the seat now and as
/// they come and go. NULL with `why` filled where it cannot be had.
struct ovs_input *ovs_input_open_udev(const char *seat, char *why, size_t why_size);
/// libinput over the given device nodes only, no udev monitor (tests, uinput devices).
struct ovs_input *ovs_input_open_paths(const char *const *paths, int count, char *why, size_t why_size);
void ovs_input_close(struct ovs_input *input);
/// The descriptor to poll: readable when libinput has something to read.
int ovs_input_fd(const struct ovs_input *input);
/// Reads what the kernel has (never blocks); 0, or a negative errno.
int ovs_input_dispatch(struct ovs_input *input);
/// The next event into `out`: 1, or 0 when there is none. Events of no use here (touch
/// frames, gestures, a hovering pen, tablets' pads, switches) are passed over.
int ovs_input_next(struct ovs_input *input, struct ovs_input_event *out);
/// What the device of the last DEVICE_ADDED is.
void ovs_input_added_device(const struct ovs_input *input, struct ovs_input_device *out);
/// Stops (on a VT switched away) or resumes reading the devices.
void ovs_input_suspend(struct ovs_input *input, int suspended);

#endif
