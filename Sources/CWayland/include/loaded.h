#ifndef OVERSCROLL_LOADED_H
#define OVERSCROLL_LOADED_H

// What is loaded in this process, for the tricks the program plays on SDL 2 (the stand-in
// Vulkan loader, the frame-callback damage cut) to check whether they apply and whether
// they took effect.

// Whether a shared object with this name (its soname, e.g. "libEGL.so.1") is loaded.
int ovs_library_loaded(const char *soname);

// SDL 3's version (major * 1000000 + minor * 1000 + micro) where libSDL3 is loaded: the
// SDL 2 the program runs on is sdl2-compat over it. 0 where it is not; 3.0.0 where it is
// and its version cannot be told.
int ovs_sdl3_version(void);

#endif
