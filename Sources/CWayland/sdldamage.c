// SDL 2.26 keeps a frame callback on every Wayland window it makes, and at each one's
// "done" it damages the whole surface and asks for the next (SDL_waylandwindow.c,
// surface_damage_frame_done: a workaround for EGL swaps without damage). On the CPU path
// we commit the window's surface ourselves with exact damage, so that whole-surface
// damage rode in every other commit of ours and made the compositor repaint the whole
// output for a turning spinner, costing cage more CPU than the GL path did (the figures:
// docs/performance.md, "Figures behind the code's comments").
//
// The request cannot be withdrawn once SDL sends it, but the chain can be cut: libSDL2
// calls libwayland-client through its PLT, so this program defines wl_proxy_add_listener
// itself (exported: Package.swift's --export-dynamic-symbol) and the loader binds SDL's
// calls to it. It passes every call on, except that a frame callback SDL arms for the
// one window whose frames we commit gets a listener that does nothing: when it fires,
// SDL damages nothing and arms no next one. The callback stays SDL's, which destroys it
// with the window. (SDL's wl_keyboard listeners pass here too: keyboardenter.c puts the
// program's in front of them.) Our own listeners go to libwayland-client directly
// (`ovs_wl_add_listener_unseen`), never through here, so the count below is SDL's alone.
//
// Every call is passed on to the definition in libwayland-client itself, looked up in
// that library (`real_add_listener`). A "next" that is not found would drop every listener
// SDL registers and the window would wait for ever for its first roundtrip (seen under
// sdl2-compat, when SDL 3's copy was in no scope RTLD_NEXT searched). Whether the cut
// applies at all (SDL 2 and SDL 3 up to 3.2 damage at their frame callbacks) is the
// caller's to decide (WlShmChain, SDLTricks); the count below says whether SDL's calls reach it.
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "keyboardenter.h"
#include "wlshm.h"
#include "wlsymbol.h"

#include <dlfcn.h>
#include <wayland-client-core.h>
struct wl_callback;

// The user data SDL gives its window's wl_surface and that window's frame callbacks (its
// SDL_WindowData); NULL when no window's frames are ours. The interposer has no context
// of its own: this is the one process-wide value, set by the main thread.
static _Atomic(void *) quieted = NULL;
// Calls passed on: whether SDL's listener registrations reach the interposer at all.
static atomic_long passed_on = 0;

static void done_quietly(void *data, struct wl_callback *callback, uint32_t time) {
    (void)data, (void)callback, (void)time;
}
static void (*const quiet_listener[])(void *, struct wl_callback *, uint32_t) = {done_quietly};

typedef int (*add_listener_fn)(struct wl_proxy *, void (**)(void), void *);

// The definition in libwayland-client itself; NULL where the library is not loaded (it is
// linked, so only a broken install). Looked up, not called by name: the one name is both
// ours and the library's, and by name a call would come back here.
static add_listener_fn real_add_listener(void) {
    static _Atomic(add_listener_fn) real = NULL;
    add_listener_fn next = atomic_load(&real);
    if (next != NULL) return next;
    void *handle = dlopen("libwayland-client.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) return NULL;
    next = (add_listener_fn)dlsym(handle, "wl_proxy_add_listener");
    dlclose(handle);    // linked: the library stays loaded
    if (next == wl_proxy_add_listener) return NULL;
    atomic_store(&real, next);
    return next;
}

int wl_proxy_add_listener(struct wl_proxy *proxy, void (**implementation)(void), void *data) {
    add_listener_fn next = real_add_listener();
    if (next == NULL) return -1;
    void *window = atomic_load(&quieted);
    const char *class = wl_proxy_get_class(proxy);
    if (window != NULL && data == window && strcmp(class, "wl_callback") == 0)
        implementation = (void (**)(void))quiet_listener;
    // SDL's keyboard listener gets the program's in front of it (keyboardenter.c: a
    // crash at a virtual keyboard's first enter).
    if (strcmp(class, "wl_keyboard") == 0)
        implementation = (void (**)(void))ovs_wl_keyboard_listener(
            (const struct wl_keyboard_listener *)implementation, data, wl_keyboard_interface.event_count);
    atomic_fetch_add(&passed_on, 1);
    return next(proxy, implementation, data);
}

int ovs_wl_add_listener_unseen(struct wl_proxy *proxy, void (**implementation)(void), void *data) {
    add_listener_fn next = real_add_listener();
    return next == NULL ? -1 : next(proxy, implementation, data);
}

int ovs_wl_quiet_sdl_damage(void *surface) {
    if (surface == NULL) {
        atomic_store(&quieted, NULL);
        return 1;
    }
    atomic_store(&quieted, wl_proxy_get_user_data((struct wl_proxy *)surface));
    return atomic_load(&quieted) != NULL;
}

long ovs_wl_listeners_passed_on(void) { return atomic_load(&passed_on); }
