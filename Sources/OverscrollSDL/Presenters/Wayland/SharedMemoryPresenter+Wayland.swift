import CSDL

/// The CPU path under Wayland: SDL 2.26 has no window surface there without OpenGL, so
/// frames are drawn into memory of ours and shown through wl_shm buffers — the shared
/// presenter (`SharedMemoryPresenter`) over a `WlShmChain`. What is Wayland's own is here:
/// the window's wl_surface, memory for the window at the screen's size, the window's size
/// followed as the compositor changes it, and the cut of SDL's frame-callback damage.
/// (wp_viewporter's source rectangle would show a ring as well, but cage 0.1.4 does not
/// offer it, and SDL takes the surface's one viewport for scaled fullscreen modes.)
extension SharedMemoryPresenter {
    /// The presenter for `window`, a Wayland window; nil with the reason in `why`
    /// elsewhere, or where the compositor offers no shared memory SDL's pixels fit.
    static func onWayland(window: OpaquePointer, reason: String, why: inout String) -> SharedMemoryPresenter? {
        var subsystem: Int32 = 0
        var connection: UnsafeMutableRawPointer?
        guard CSDL_NativeConnection(window, &subsystem, &connection) != 0, subsystem == CSDL_SYSWM_WAYLAND,
              let connection, let wlSurface = CSDL_WaylandSurface(window) else {
            why = "not a Wayland window"
            return nil
        }
        guard let chain = WlShmChain(connection: connection, wlSurface: wlSurface, why: &why) else { return nil }
        // Room for the window at the screen's size in either orientation: the renderer
        // drawing here lives as long as the window, its textures with it, so the surface
        // is resized in place.
        var bounds = SDL_Rect()
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSizeInPixels(window, &w, &h)
        var side = max(Int(w), Int(h), 1)
        if SDL_GetDisplayBounds(max(0, SDL_GetWindowDisplayIndex(window)), &bounds) == 0 {
            side = max(side, Int(bounds.w), Int(bounds.h))
        }
        // Two pixel units per point at most (HiDPI), as the window's size in pixels allows.
        let capacity = side * side * 4 * 4
        let made = SharedMemoryPresenter(
            chain: chain, capacity: capacity,
            currentSize: {
                var w: Int32 = 0, h: Int32 = 0
                SDL_GetWindowSizeInPixels(window, &w, &h)
                return (w, h)
            },
            name: "wl_shm buffers", reason: reason + "; frames are drawn by the CPU and shown through wl_shm buffers",
            bufferName: "a wl_shm buffer", frameDamageCut: chain.damageCut, why: &why)
        // A window made with OpenGL (where `GLFreeWindow` could not be had, or the GL
        // renderer was asked first) started Mesa: its threads, libGL, libEGL and swrast.
        // Nothing here draws with it, so it is let go at once; libLLVM stays mapped (it
        // cannot be unloaded). A window made without it has nothing to let go.
        if made != nil { SDL_GL_UnloadLibrary() }
        return made
    }
}
