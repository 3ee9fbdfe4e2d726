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
    let described: PresenterDescription
    var keepsPixels: Bool { true }
    var showsAtOnce: Bool { true }
    private let window: OpaquePointer
    /// The ring made last (`makeListRing`), which the painter holds; its puts are sent
    /// with the window surface's present.
    private weak var ring: X11ListRing?

    /// `renderer`, SDL's software renderer on `window`'s surface, which this now owns.
    init(window: OpaquePointer, renderer: OpaquePointer, reason: String) {
        self.window = window
        drawing = PresenterRenderer(renderer)
        described = PresenterDescription(name: "SDL's window surface", path: .cpu, reason: reason)
    }

    func canvas() -> WindowCanvas? { WindowCanvas(window: window) }

    func present(_ frame: PresentedFrame) {
        SDL_RenderFlush(renderer)
        // The ring's rows are put before the surface's rectangles (the overlays over them).
        if let ringFrame = frame.ring, ringFrame.drawn { ring?.put(ringFrame.rows, first: ringFrame.first) }
        let rects = frame.damage
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

    /// A ring where the window is an X11 one (elsewhere none, and nothing to say of it).
    func makeListRing(note: inout String) -> (any ListRing)? {
        note = ""
        guard CSDL_X11Window(window) != 0 else { return nil }
        var why = "no window surface"
        let made = SDL_GetWindowSurface(window).flatMap { surface in
            X11ListRing(window: window, width: surface.pointee.w, height: surface.pointee.h,
                        pixelFormat: surface.pointee.format.pointee.format, why: &why)
        }
        ring = made
        note = made != nil ? "; a scroll changes which row of the list's shared-memory ring the X server shows first, not the pixels"
            : "; the list is drawn in the window surface (no shared-memory ring: \(why))"
        return made
    }
}
