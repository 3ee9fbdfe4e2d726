#define _GNU_SOURCE
#include "loaded.h"
#include <dlfcn.h>
#include <stddef.h>

// RTLD_NOLOAD finds a loaded object by name whatever scope it was opened in (SDL 3 is
// opened by sdl2-compat with dlopen), and loads nothing.
int ovs_library_loaded(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) return 0;
    dlclose(handle);
    return 1;
}

int ovs_sdl3_version(void) {
    void *handle = dlopen("libSDL3.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) return 0;
    int (*get_version)(void) = (int (*)(void))dlsym(handle, "SDL_GetVersion");
    // SDL 3's SDL_GetVersion returns the number; a library without it is still SDL 3.
    int version = get_version != NULL ? get_version() : 3000000;
    dlclose(handle);
    return version > 0 ? version : 3000000;
}
