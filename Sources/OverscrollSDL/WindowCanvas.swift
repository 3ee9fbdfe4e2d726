import CSDL
#if canImport(Glibc)
import Glibc
#endif

/// The window surface's pixels, written directly on the CPU path: opaque fills and copies
/// with ordinary stores, a pixel row at a time (`ListLines`), and the flash blended inside
/// `clip`. SDL's software fill and copy use non-temporal
/// (streaming) stores, which stall on the short lines a row is cut into: filling a row's
/// background around its text through SDL cost more than copying the whole row.
struct WindowCanvas {
    private let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels per line.
    private let stride: Int
    private let format: UnsafeMutablePointer<SDL_PixelFormat>
    let bounds: SDL_Rect
    var clip: SDL_Rect

    /// The window's surface, if it is one 32-bit pixels can be written into.
    init?(window: OpaquePointer) {
        guard let surface = SDL_GetWindowSurface(window), let raw = surface.pointee.pixels,
              surface.pointee.format.pointee.BytesPerPixel == 4, surface.pointee.pitch % 4 == 0 else { return nil }
        pixels = raw.assumingMemoryBound(to: UInt32.self)
        stride = Int(surface.pointee.pitch / 4)
        format = surface.pointee.format
        bounds = SDL_Rect(x: 0, y: 0, w: surface.pointee.w, h: surface.pointee.h)
        clip = bounds
    }

    /// The surface's pixel for an opaque colour.
    func pixel(_ c: SDL_Color) -> UInt32 { SDL_MapRGB(format, c.r, c.g, c.b) }

    /// The surface's pixel format, for images made to be copied here.
    var pixelFormat: UInt32 { format.pointee.format }

    /// Sets pixels `from..<to` of pixel row `row` to `pixel` (a surface value); not clipped
    /// to `clip`, only to the surface.
    func fill(row: Int32, from: Int32, to: Int32, pixel: UInt32) {
        let from = max(0, from), to = min(bounds.w, to)
        guard row >= 0, row < bounds.h, from < to else { return }
        UnsafeMutableRawPointer(pixels + Int(row) * stride + Int(from)).withMemoryRebound(to: wchar_t.self, capacity: Int(to - from)) {
            _ = wmemset($0, Int32(bitPattern: pixel), Int(to - from))
        }
    }

    /// One pixel, if it is on the surface.
    func set(x: Int32, y: Int32, pixel: UInt32) {
        guard x >= 0, y >= 0, x < bounds.w, y < bounds.h else { return }
        pixels[Int(y) * stride + Int(x)] = pixel
    }

    /// Copies `count` pixels from `source` to pixel row `row` from x; only clipped to the
    /// surface.
    func copy(row: Int32, x: Int32, from source: UnsafePointer<UInt32>, count: Int32) {
        let skip = max(0, -x), end = min(bounds.w, x + count)
        guard row >= 0, row < bounds.h, x + skip < end else { return }
        (pixels + Int(row) * stride + Int(x + skip)).update(from: source + Int(skip), count: Int(end - x - skip))
    }

    /// Blends `color` at `alpha` (0…1) over every pixel inside `clip` (the threshold
    /// flash). Two channels at a time in one 32-bit word, so the compiler vectorizes it;
    /// SDL's blended fill works a channel at a time and cost a millisecond a frame.
    func blend(_ color: SDL_Color, alpha: Double) {
        guard let r = clipped(bounds), alpha > 0 else { return }
        let a = UInt32(max(0, min(256, (alpha * 256).rounded())))
        let target = pixel(color)
        let targetRB = target & 0x00FF_00FF, targetAG = (target >> 8) & 0x00FF_00FF
        for y in Int(r.y)..<Int(r.y + r.h) {
            let line = UnsafeMutableBufferPointer(start: pixels + y * stride + Int(r.x), count: Int(r.w))
            for i in line.indices {
                let p = line[i]
                let rb = p & 0x00FF_00FF, ag = (p >> 8) & 0x00FF_00FF
                // p + (target − p)·a per channel; the channels are 8 bits apart in each word.
                let nrb = (rb &* (256 - a) &+ targetRB &* a) >> 8 & 0x00FF_00FF
                let nag = (ag &* (256 - a) &+ targetAG &* a) >> 8 & 0x00FF_00FF
                line[i] = nrb | nag << 8
            }
        }
    }

    private func clipped(_ rect: SDL_Rect) -> SDL_Rect? {
        var a = rect, b = clip, r = SDL_Rect()
        guard rect.w > 0, rect.h > 0, SDL_IntersectRect(&a, &b, &r) == SDL_TRUE else { return nil }
        return r
    }
}
