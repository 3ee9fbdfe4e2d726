// SDL's wl_keyboard listener behind one of the program's own: a keyboard's enter that
// comes with keys held before SDL knows the keyboard's layout reaches SDL without them.
//
// Why: SDL (2.26 to 2.32, and SDL 3 up to 3.2) starts a seat's layout ("group") at
// XKB_GROUP_INVALID, -1, and learns it from the first wl_keyboard.modifiers, which the
// compositor sends right after the first enter. At that enter SDL looks each held key up
// in that layout when the keymap is a virtual keyboard's (its layout has no name: wtype,
// wvkbd, squeekboard, through zwp_virtual_keyboard_v1). libxkbcommon before 1.8.1 wraps
// layout -1 into 1 for a key with one layout (1 + -1 % 1; upstream's "keymap: fix modular
// arithmetic"), one past the key's layouts: xkb_keymap_key_get_syms_by_level reads beyond
// them and dies of SIGSEGV in most runs, the report lost (Debian 13: SDL 2.32.4 and
// libxkbcommon 1.7.0 under cage 0.2, a key held as the virtual keyboard appeared, the
// seat's first keyboard; the backtrace is in docs/behaviour.md). SDL uses the held keys
// only to press the modifiers held as the window gains focus; a virtual keyboard's come
// with the modifiers event that follows, and a real keyboard's held through its very first
// enter are not seen as held (released and pressed again, they are). Every other event,
// and every enter once SDL knows the layout, passes to SDL unchanged.
//
// Where: SDL registers its listener through the program's wl_proxy_add_listener
// (sdldamage.c), which asks `ovs_wl_keyboard_listener` for the one to give libwayland.
// The interposer has no context of its own: SDL's input (the listener's data) and SDL's
// listener are kept in a few process-wide slots, one per seat SDL listens on. Each
// wl_keyboard SDL makes starts unknown, also one made again for the same seat (its
// capability gone and back), though SDL keeps the layout in the seat's input: a new
// input may have the address of one SDL freed (SDL's video quit and started again), and
// withholding once too often costs only modifiers held through that enter.
#include "keyboardenter.h"
#include <stdatomic.h>
#include <stddef.h>

enum { slots = 16 };
static struct slot {
    _Atomic(void *) data;                                   // SDL's input; NULL: free
    _Atomic(const struct wl_keyboard_listener *) sdl;       // SDL's listener
    atomic_int keymap_seen;     // an XKB keymap came: SDL has an xkb state
    atomic_int layout_known;    // and then a modifiers event: SDL's layout is set
} table[slots];
static atomic_long withheld = 0;

static struct slot *find(void *data) {
    for (int i = 0; i < slots; i++)
        if (atomic_load(&table[i].data) == data) return &table[i];
    return NULL;
}

static void keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    struct slot *s = find(data);
    if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) atomic_store(&s->keymap_seen, 1);
    atomic_load(&s->sdl)->keymap(data, k, format, fd, size);
}

static void enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface,
                  struct wl_array *keys) {
    struct slot *s = find(data);
    struct wl_array none = {0, 0, NULL};
    if (keys != NULL && keys->size > 0 && !atomic_load(&s->layout_known)) {
        atomic_fetch_add(&withheld, 1);
        keys = &none;
    }
    atomic_load(&s->sdl)->enter(data, k, serial, surface, keys);
}

static void leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface) {
    atomic_load(&find(data)->sdl)->leave(data, k, serial, surface);
}

static void key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t code,
                uint32_t state) {
    atomic_load(&find(data)->sdl)->key(data, k, serial, time, code, state);
}

static void modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t depressed,
                      uint32_t latched, uint32_t locked, uint32_t group) {
    struct slot *s = find(data);
    atomic_load(&s->sdl)->modifiers(data, k, serial, depressed, latched, locked, group);
    // SDL ignores modifiers that come before any keymap (it has no state to set).
    if (atomic_load(&s->keymap_seen)) atomic_store(&s->layout_known, 1);
}

static void repeat_info(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay) {
    struct slot *s = find(data);
    // Version 4's event: a listener may leave it NULL.
    if (atomic_load(&s->sdl)->repeat_info != NULL) atomic_load(&s->sdl)->repeat_info(data, k, rate, delay);
}

static const struct wl_keyboard_listener ours = {keymap, enter, leave, key, modifiers, repeat_info};

// Six events are all wl_keyboard has (version 10, libwayland 1.24): a library whose
// keyboard has more would call past `ours`, so SDL's listener is left as it is there.
const struct wl_keyboard_listener *ovs_wl_keyboard_listener(const struct wl_keyboard_listener *sdl, void *data,
                                                            int event_count) {
    if (sdl == NULL || data == NULL || event_count != 6) return sdl;
    struct slot *s = find(data);
    for (int i = 0; s == NULL && i < slots; i++) {
        void *expected = NULL;
        if (atomic_compare_exchange_strong(&table[i].data, &expected, data)) s = &table[i];
    }
    if (s == NULL) return sdl;  // more seats than slots: those keep SDL's listener alone
    // SDL destroyed the seat's keyboard before making this one: no event of it comes now.
    atomic_store(&s->keymap_seen, 0);
    atomic_store(&s->layout_known, 0);
    atomic_store(&s->sdl, sdl);
    return &ours;
}

long ovs_wl_keyboard_keys_withheld(void) { return atomic_load(&withheld); }
