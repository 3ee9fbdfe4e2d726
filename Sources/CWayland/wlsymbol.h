#ifndef OVERSCROLL_WLSYMBOL_H
#define OVERSCROLL_WLSYMBOL_H
struct wl_proxy;
// wl_proxy_add_listener as libwayland-client defines it, past this program's own (which
// counts SDL's calls and quiets its frame callbacks, sdldamage.c): for our own listeners.
// -1 where libwayland-client is not loaded.
int ovs_wl_add_listener_unseen(struct wl_proxy *proxy, void (**implementation)(void), void *data);
#endif
