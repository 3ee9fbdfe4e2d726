import CSDL
import CXShm

/// The list's pixels as a ring of pixel rows that the display shows from any row on: a
/// scroll moves which ring row the window's top shows instead of moving the pixels, so a
/// scrolling frame writes only the rows it brings into view (`ListLines.writeRing`). The
/// overlays are not in it: they are drawn in the window surface over the list written
/// again under them, and only their rectangles are taken from there.
///
/// Why: on the CPU path a scrolling frame rewrote most of the window's pixels (the text of
/// every row moved) only for the display server to copy them again; the server copies the
/// window's rows out of shared memory either way, and from any row on at the same cost.
protocol ListRing: AnyObject {
    /// The ring's size: as wide and as tall as the window.
    var bounds: SDL_Rect { get }
    /// The ring's pixels, in the window surface's format; nil for a ring kept as lines
    /// only (`ListLines.ringLine`), whose display writes the rows it shows from them
    /// (Wayland's, `WaylandListRing`).
    var canvas: WindowCanvas? { get }
    /// Queues showing window rows `rows` from the ring, window row y showing ring row
    /// (first + y) mod height. Nothing reaches the display before the next `sync` or
    /// present of the window surface (SDL's ends in one).
    func show(_ rows: Range<Int32>, first: Int32)
    /// The same, told also which window rows' ring rows this frame wrote (`written`, bands
    /// in order) and what each ring row shows (`lines`): a display that shows the ring
    /// where it lies (Wayland's) rather than copying it into the window needs only those.
    /// By default `show(rows, first:)`.
    func show(_ rows: Range<Int32>, first: Int32, written: [Range<Int32>], lines: any RingLines)
    /// Sends what is queued and waits until the display has read it: only then may rows
    /// it shows be written again.
    func sync()
}

extension ListRing {
    func show(_ rows: Range<Int32>, first: Int32, written: [Range<Int32>], lines: any RingLines) { show(rows, first: first) }
    var bounds: SDL_Rect { canvas?.bounds ?? SDL_Rect() }
}

/// What each row of a ring kept as lines shows (`ListLines`' ring, held by the surface
/// backend that draws it), for the display that writes its rows into buffers of its own.
protocol RingLines: AnyObject {
    /// Calls `body` with the lines, borrowed: a frame reads a line a buffer row, and a copy
    /// of `ListLines` for each (its arrays retained and released) was most of that.
    func withRingLines(_ body: (borrowing ListLines) -> Void)
}

/// `ListRing` in memory shared with the X server (MIT-SHM), put on SDL's window through
/// SDL's own connection, so our puts and SDL's are done in the order they were made.
final class X11ListRing: ListRing {
    private let image: OpaquePointer
    /// Our copy of the window surface's pixel format: the surface's own goes with it when
    /// the window is resized.
    private let format: UnsafeMutablePointer<SDL_PixelFormat>
    let canvas: WindowCanvas?
    private let height: Int32

    /// A ring for `window`'s `width` × `height` pixels in `pixelFormat` (the window
    /// surface's); nil, with the reason in `why`, where the X server cannot read shared
    /// memory of ours in that format.
    init?(window: OpaquePointer, width: Int32, height: Int32, pixelFormat: UInt32, why: inout String) {
        var subsystem: Int32 = 0
        var connection: UnsafeMutableRawPointer?
        let xid = CSDL_X11Window(window)
        guard xid != 0, CSDL_NativeConnection(window, &subsystem, &connection) != 0, let connection else {
            why = "not an X11 window"
            return nil
        }
        var reason = [CChar](repeating: 0, count: 160)
        guard let image = ovs_shm_image_create(connection, xid, width, height, &reason, Int32(reason.count)) else {
            why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        var red: UInt32 = 0, green: UInt32 = 0, blue: UInt32 = 0
        ovs_shm_image_masks(image, &red, &green, &blue)
        guard let format = SDL_AllocFormat(pixelFormat), format.pointee.BytesPerPixel == 4,
              format.pointee.Rmask == red, format.pointee.Gmask == green, format.pointee.Bmask == blue else {
            why = "the X server's pixels are not the window surface's"
            ovs_shm_image_destroy(image)
            return nil
        }
        self.image = image
        self.format = format
        self.height = height
        canvas = WindowCanvas(pixels: ovs_shm_image_pixels(image), stride: Int(ovs_shm_image_stride(image)),
                              width: width, height: height, format: format)
    }

    deinit {
        ovs_shm_image_destroy(image)
        SDL_FreeFormat(format)
    }

    func show(_ rows: Range<Int32>, first: Int32) {
        let count = min(rows.count, Int(height))
        guard count > 0 else { return }
        let from = ((first + rows.lowerBound) % height + height) % height
        // A band that runs past the ring's last row goes on from its first.
        let before = min(Int32(count), height - from)
        ovs_shm_image_put(image, from, rows.lowerBound, before)
        ovs_shm_image_put(image, 0, rows.lowerBound + before, Int32(count) - before)
    }

    func sync() { ovs_shm_image_sync(image) }
}
