import CSDL

/// `ListRing` on Wayland: the ring in plain memory of ours, shown through wl_shm buffers
/// that each hold it from some row on (`WaylandSurface`): a scroll moves which row a
/// buffer starts from and copies into it only the ring rows the frame wrote, as the X
/// server copies only those from X11's ring. Nothing is queued: the window surface's
/// present shows the ring's frame with the overlays.
final class WaylandListRing: ListRing {
    let canvas: WindowCanvas
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int32
    let height: Int32
    /// Our copy of the window surface's pixel format: the surface's own goes with it when
    /// the window is resized.
    private let format: UnsafeMutablePointer<SDL_PixelFormat>
    /// Not held: the display owns it and lets it go before SDL's connection.
    private weak var surface: WaylandSurface?

    /// A ring for `surface`'s `width` × `height` pixels in `pixelFormat`; nil where that
    /// is not the 32-bit format the buffers hold.
    init?(surface: WaylandSurface, width: Int32, height: Int32, pixelFormat: UInt32) {
        guard width > 0, height > 0, let format = SDL_AllocFormat(pixelFormat) else { return nil }
        guard format.pointee.BytesPerPixel == 4 else {
            SDL_FreeFormat(format)
            return nil
        }
        pixels = .allocate(capacity: Int(width) * Int(height))
        pixels.initialize(repeating: 0, count: Int(width) * Int(height))
        self.width = width
        self.height = height
        self.format = format
        self.surface = surface
        canvas = WindowCanvas(pixels: pixels, stride: Int(width), width: width, height: height, format: format)
        surface.attach(self)
    }

    deinit {
        pixels.deallocate()
        SDL_FreeFormat(format)
    }

    /// Without the rows written, every row counts as written.
    func show(_ rows: Range<Int32>, first: Int32) {
        surface?.ringFrame(first: first, written: CollectionOfOne(0..<height))
    }

    func show(_ rows: Range<Int32>, first: Int32, written: [Range<Int32>]) {
        surface?.ringFrame(first: first, written: written)
    }

    /// Nothing to wait for: the frame is copied into the buffers at its present.
    func sync() {}
}
