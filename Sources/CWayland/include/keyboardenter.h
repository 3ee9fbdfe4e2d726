#ifndef OVERSCROLL_KEYBOARDENTER_H
#define OVERSCROLL_KEYBOARDENTER_H
#include <wayland-client-protocol.h>

// The listener libwayland is to call for a wl_keyboard that SDL listens on with `sdl` and
// `data` (its input): the program's own, which passes every event to `sdl` but withholds
// the keys of an enter that comes before SDL knows the keyboard's layout (keyboardenter.c
// says why). `sdl` itself where it cannot (no data, a wl_keyboard of other than
// `event_count` 6 events, more seats than it keeps).
const struct wl_keyboard_listener *ovs_wl_keyboard_listener(const struct wl_keyboard_listener *sdl, void *data,
                                                            int event_count);
// How many enters reached SDL without their held keys so far.
long ovs_wl_keyboard_keys_withheld(void);

#endif
