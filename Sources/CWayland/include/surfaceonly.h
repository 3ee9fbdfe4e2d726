#ifndef OVERSCROLL_SURFACEONLY_H
#define OVERSCROLL_SURFACEONLY_H

// A Wayland window SDL 2.26 makes without OpenGL.
//
// SDL 2.26's Wayland driver loads OpenGL (EGL) for every window not made for Vulkan and
// refuses the window when EGL cannot make a surface for it; on a machine without a GPU
// that loads Mesa's llvmpipe, libLLVM with it (tens of MiB resident, and it cannot be
// unloaded: docs/performance.md, "Figures behind the code's comments"). A window made for Vulkan gets no EGL surface: SDL only asks the Vulkan
// loader whether it offers VK_KHR_surface and VK_KHR_wayland_surface. The CPU path draws
// into wl_shm buffers of its own and never uses Vulkan either, so what SDL is given to
// load is a "loader" that answers exactly that question: a shared object made here in
// memory (a memfd) that holds no code, only the symbol vkGetInstanceProcAddr, an absolute
// symbol whose value is the address of a function in this program.
// Not a library shipped in the package: SwiftPM links one against libswiftCore.so, which a
// kiosk has not (docs/performance.md, "Figures behind the code's comments").

// Makes the loader and writes the path SDL_Vulkan_LoadLibrary should be given
// ("/proc/self/fd/N") into `path`. Returns the descriptor, to close once SDL has loaded
// it, or -1 with the reason in `why`.
int ovs_surface_only_loader(char *path, int path_size, char *why, int why_size);

#endif
