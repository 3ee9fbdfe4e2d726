#define _GNU_SOURCE
#include "loaded.h"
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// RTLD_NOLOAD finds a loaded object by name whatever scope it was opened in (SDL 3 is
// opened by sdl2-compat with dlopen), and loads nothing.
int ovs_library_loaded(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) return 0;
    dlclose(handle);
    return 1;
}

// SDL 3's file is libSDL3.so.0.MINOR.MICRO (the soname's link points at it): its version
// without calling into it. Else SDL_GetVersion, which SDL 3 has and returns as a number.
int ovs_sdl3_version(void) {
    void *handle = dlopen("libSDL3.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) return 0;
    int version = 0;
    struct link_map *map = NULL;
    char file[PATH_MAX];
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL &&
        realpath(map->l_name, file) != NULL) {
        const char *at = strstr(file, "libSDL3.so.0.");
        int minor = 0, micro = 0;
        if (at != NULL && sscanf(at + strlen("libSDL3.so.0."), "%d.%d", &minor, &micro) == 2)
            version = 3000000 + minor * 1000 + micro;
    }
    if (version == 0) {
        int (*get_version)(void) = (int (*)(void))dlsym(handle, "SDL_GetVersion");
        if (get_version != NULL) version = get_version();
    }
    dlclose(handle);
    return version >= 3000000 ? version : 3000000;
}
