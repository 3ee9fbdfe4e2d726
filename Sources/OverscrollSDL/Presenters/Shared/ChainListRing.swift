import CSDL

/// `ListRing` on Wayland, kept as lines only (`ListLines`' ring): its rows are written
/// from those straight into the wl_shm buffers that each hold the ring from some row on
/// (`WaylandSurface`, `RingBuffers`), so a scroll moves which row a buffer starts from and
/// writes into it only the rows that differ, as the X server copies only those from X11's
/// ring. Pixels of the ring of its own as well would be a window's worth of memory more
/// (3.5 MiB at 720x1280) for rows the buffers hold anyway. Nothing is queued: the window
/// surface's present shows the ring's frame with the overlays.
final class WaylandListRing: ListRing {
    let bounds: SDL_Rect
    var canvas: WindowCanvas? { nil }
    var width: Int32 { bounds.w }
    var height: Int32 { bounds.h }
    /// Not held: the display owns it and lets it go before SDL's connection.
    private weak var surface: WaylandSurface?

    /// A ring for `surface`'s `width` × `height` pixels; nil for an empty window.
    init?(surface: WaylandSurface, width: Int32, height: Int32) {
        guard width > 0, height > 0 else { return nil }
        bounds = SDL_Rect(x: 0, y: 0, w: width, h: height)
        self.surface = surface
        surface.attach(self)
    }

    /// Not used: the surface backend tells a ring kept as lines what its rows show.
    func show(_ rows: Range<Int32>, first: Int32) {}

    func show(_ rows: Range<Int32>, first: Int32, written: [Range<Int32>], lines: any RingLines) {
        surface?.ringFrame(first: first, written: written, lines: lines)
    }

    /// Nothing to wait for: the frame is written into the buffers at its present.
    func sync() {}
}
