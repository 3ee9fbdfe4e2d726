import CSDL

/// SDL's window surface, drawn by the CPU with SDL's software renderer and presented a
/// rectangle at a time (`SDL_UpdateWindowSurfaceRects`). On X11 the surface is MIT-SHM
/// memory the server reads, and the list can go into a ring of its own beside it
/// (`X11ListRing`); SDL's headless drivers (offscreen, dummy: replay, the benchmarks, the
/// pixel tests) and a window-surface run elsewhere are the same presenter without the
/// ring. The window surface is plain memory, never an OpenGL texture: `Display` turns
/// SDL's framebuffer acceleration off.
final class WindowSurfacePresenter: DrawsWithOwnRenderer {
    let drawing: PresenterRenderer
    let reason: String
    var name: String { "SDL's window surface" }
    var path: RenderPath { .cpu }
    var keepsPixels: Bool { true }
    private let window: OpaquePointer
    /// The ring made last (`makeListRing`), which the painter holds; its puts are sent
    /// with the window surface's present.
    private weak var ring: X11ListRing?
    /// The window is an X11 one: a ring is worth having, and its absence worth saying.
    private var onX11 = false

    /// `renderer`, SDL's software renderer on `window`'s surface, which this now owns.
    init(window: OpaquePointer, renderer: OpaquePointer, reason: String) {
        self.window = window
        drawing = PresenterRenderer(renderer)
        self.reason = reason
    }

    func canvas() -> WindowCanvas? { WindowCanvas(window: window) }

    func present(_ rects: [SDL_Rect]?) {
        SDL_RenderFlush(renderer)
        if let rects, !rects.isEmpty {
            SDL_UpdateWindowSurfaceRects(window, rects, Int32(rects.count))
        } else if rects == nil {
            SDL_UpdateWindowSurface(window)
        } else {
            // Nothing of the surface to send: the ring's puts, if any, go and are waited
            // for here, as SDL's present would have.
            if ring?.queued == true { ring?.sync() }
            return
        }
        // SDL's present ends in a wait for the server, which read the ring's puts too.
        ring?.sent()
    }

    func makeListRing(why: inout String) -> (any ListRing)? {
        onX11 = CSDL_X11Window(window) != 0
        guard onX11 else {
            why = "not the CPU path on X11"
            return nil
        }
        guard let surface = SDL_GetWindowSurface(window) else {
            why = "no window surface"
            return nil
        }
        let made = X11ListRing(window: window, width: surface.pointee.w, height: surface.pointee.h,
                               pixelFormat: surface.pointee.format.pointee.format, why: &why)
        ring = made
        return made
    }

    func ringNote(_ ring: (any ListRing)?, why: String) -> String {
        if ring != nil { return "; a scroll changes which row of the list's shared-memory ring the X server shows first, not the pixels" }
        return onX11 ? "; the list is drawn in the window surface (no shared-memory ring: \(why))" : ""
    }
}
