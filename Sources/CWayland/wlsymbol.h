#ifndef OVERSCROLL_WLSYMBOL_H
#define OVERSCROLL_WLSYMBOL_H
// A function or interface of libwayland-client as loaded in this process (by SDL), looked
// up in that library itself; NULL where it is not loaded. (wlshm.c)
void *ovs_wl_symbol(const char *name);
#endif
