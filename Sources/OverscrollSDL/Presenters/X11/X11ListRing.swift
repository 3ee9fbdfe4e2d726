import CSDL
import CXShm

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

    /// Puts queued since the last `sync`: the window surface's present waits for the
    /// server anyway; a frame that sends nothing else waits here (`sync`).
    private(set) var queued = false

    /// Queues putting window rows `rows` on the window from the ring's pixels, window row y
    /// from ring row (first + y) mod height (`RingFrame`); the present sends them.
    func put(_ rows: Range<Int32>, first: Int32) {
        let count = min(rows.count, Int(height))
        guard count > 0 else { return }
        let from = ((first + rows.lowerBound) % height + height) % height
        // A band that runs past the ring's last row goes on from its first.
        let before = min(Int32(count), height - from)
        ovs_shm_image_put(image, from, rows.lowerBound, before)
        ovs_shm_image_put(image, 0, rows.lowerBound + before, Int32(count) - before)
        queued = true
    }

    /// Sends what is queued and waits until the server has read it.
    func sync() {
        ovs_shm_image_sync(image)
        queued = false
    }

    /// SDL's present of the window surface sent the puts and waited for the server.
    func sent() { queued = false }
}
