import CSDL
import CWayland
#if canImport(Glibc)
import Glibc
#endif

/// A Wayland window SDL makes without OpenGL, for the CPU path.
///
/// SDL 2.26's Wayland driver loads EGL for every window not made for Vulkan, and refuses
/// the window if EGL cannot make a surface for it. On a machine without a GPU EGL is
/// Mesa's llvmpipe: libGL, libEGL, swrast and libLLVM mapped (libLLVM cannot be unloaded;
/// about 45 MiB resident) for a window the CPU path never draws on with OpenGL. A window
/// made for Vulkan gets no EGL surface; SDL only asks the Vulkan loader whether it offers
/// the Wayland surface extensions. So SDL is given, before the window, a loader of ours
/// that offers them and nothing else (`ovs_surface_only_loader`); the CPU path draws
/// into wl_shm buffers of its own and never calls Vulkan either.
struct GLFreeWindow {
    /// The window flag to create the window with.
    let flag = SDL_WINDOW_VULKAN.rawValue

    /// Gives SDL the loader; nil, with the reason in `why`, where it cannot be had (then
    /// SDL's window loads OpenGL as before). Call after SDL's video is started.
    init?(why: inout String) {
        var path = [CChar](repeating: 0, count: 64)
        var reason = [CChar](repeating: 0, count: 160)
        let fd = ovs_surface_only_loader(&path, Int32(path.count), &reason, Int32(reason.count))
        guard fd >= 0 else {
            why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        // Loaded, the object no longer needs its descriptor.
        defer { close(fd) }
        guard SDL_Vulkan_LoadLibrary(path) == 0 else {
            why = "SDL refused the loader: " + (SDL_GetError().map { String(cString: $0) } ?? "unknown error")
            return nil
        }
    }

    /// Lets go of the loader (the window holds its own reference while it lives).
    func release() {
        SDL_Vulkan_UnloadLibrary()
    }
}
