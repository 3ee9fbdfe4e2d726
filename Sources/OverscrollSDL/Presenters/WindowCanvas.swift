import CDRM
import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The window surface's pixels, written directly on the CPU path: opaque fills and copies
/// with ordinary stores, a pixel row at a time (`ListLines`), and the flash blended over
/// them (`Tint`). SDL's software fill and copy use non-temporal
/// (streaming) stores, which stall on the short lines a row is cut into: filling a row's
/// background around its text through SDL cost more than copying the whole row.
///
/// It is the presenter's (`Presenter.canvas`): what a presenter lends the drawing for a
/// frame, and what it writes its own buffers through, so it lives with the presenters and
/// the drawing only calls forward into it.
struct WindowCanvas {
    private let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels per line.
    private let stride: Int
    private let format: UnsafeMutablePointer<SDL_PixelFormat>
    /// How the memory is turned against the canvas (`init(pixels:…:turn:)`); the canvas's
    /// coordinates are the app's.
    private let turn: ScreenRotation
    /// Where a canvas turned 90° or 270° gathers its rows (`TurnStrip`); nil otherwise.
    /// Not retained (`Unmanaged`, read without a retain): the strip is its presenter's,
    /// which outlives every canvas it lends (one a frame), and a canvas holding no counted
    /// reference copies as plain bytes, where a retained one cost a retain, a release and
    /// Optional's generic copy each time it was passed (docs/performance.md, "The unturned
    /// rows out of the band loop").
    private let strip: Unmanaged<TurnStrip>?
    let bounds: SDL_Rect
    var clip: SDL_Rect

    /// The window's surface, if it is one 32-bit pixels can be written into.
    init?(window: OpaquePointer) {
        guard let surface = SDL_GetWindowSurface(window) else { return nil }
        self.init(surface: surface)
    }

    /// A surface's pixels, if they are 32-bit.
    init?(surface: UnsafeMutablePointer<SDL_Surface>) {
        guard let raw = surface.pointee.pixels,
              surface.pointee.format.pointee.BytesPerPixel == 4, surface.pointee.pitch % 4 == 0 else { return nil }
        pixels = raw.assumingMemoryBound(to: UInt32.self)
        stride = Int(surface.pointee.pitch / 4)
        format = surface.pointee.format
        turn = .none
        strip = nil
        bounds = SDL_Rect(x: 0, y: 0, w: surface.pointee.w, h: surface.pointee.h)
        clip = bounds
    }

    /// `width` × `height` pixels at `pixels`, `stride` pixels from one line to the next, in
    /// `format` (which must outlive the canvas): the list's ring (`ListRing`). `turn`: the
    /// memory is a turned screen's buffer, the canvas turned by it onto the memory (90°:
    /// clockwise, the canvas's row y the memory's column height − 1 − y, and the memory
    /// `height` pixels wide), so a frame drawn at the app's size is written turned, with no
    /// pass of its own. Such a canvas takes only `fill(row:…)` and `copy(row:…)` (what a
    /// buffer of the shared-memory presenter is written with), and at 90° and 270° needs
    /// `strip` (at least `width` wide, kept by the caller while the canvas is used: the
    /// canvas does not retain it), where its rows gather until `finish()` writes them
    /// (`TurnStrip`): the writer calls `finish()` before the memory is shown.
    init(pixels: UnsafeMutablePointer<UInt32>, stride: Int, width: Int32, height: Int32, format: UnsafeMutablePointer<SDL_PixelFormat>,
         turn: ScreenRotation = .none, strip: TurnStrip? = nil) {
        self.pixels = pixels
        self.stride = stride
        self.format = format
        self.turn = turn
        bounds = SDL_Rect(x: 0, y: 0, w: width, h: height)
        clip = bounds
        if turn.crosswise {
            guard let strip else { preconditionFailure("a canvas turned 90° or 270° writes through a strip") }
            strip.begin(pixels: pixels, stride: stride, width: width, height: height, turn: turn)
            self.strip = Unmanaged.passUnretained(strip)
        } else {
            self.strip = nil
        }
    }

    /// Writes what a canvas turned 90° or 270° still holds in its strip to its memory; to
    /// be called once it is written, before the memory is shown. Nothing to do otherwise.
    func finish() { strip?._withUnsafeGuaranteedRef { $0.finish() } }

    /// The rows written to memory together with pixel row `row` (inside the canvas): at 90°
    /// and 270°, the strip's band of `TurnStrip.rows` rows that make one cache line of each
    /// memory row; otherwise `row` alone. A writer that knows every row's pixels gives those
    /// rows one range, and the memory gets whole lines.
    func rowsWrittenWith(_ row: Int32) -> Range<Int32> {
        switch turn {
        case .none, .half: return row..<(row + 1)
        case .quarter, .threeQuarters: return TurnStrip.band(of: row, height: bounds.h, quarter: turn == .quarter)
        }
    }

    /// Whether the memory takes rows in bands (turned 90° or 270°: `rowsWrittenWith` is
    /// then a band); otherwise every row is written alone, and a writer may skip asking.
    var writesRowsInBands: Bool { strip != nil }

    /// Where a writer puts a band's colours for `fillBand`, a row's from the band's first
    /// row on (a canvas turned 90° or 270° only).
    var bandPattern: UnsafeMutablePointer<UInt32> { strip.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.pattern } }

    /// The band `rows` (`rowsWrittenWith`) of a canvas turned 90° or 270°, each row its own
    /// colour (`bandPattern`) over pixels `from..<to`: written at once, untransposed
    /// (`TurnStrip.fillBand`).
    func fillBand(rows: Range<Int32>, from: Int32, to: Int32) {
        let from = max(0, from), to = min(bounds.w, to)
        guard from < to else { return }
        strip.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.fillBand(rows: rows, from: from, to: to) }
    }

    /// Whether the canvas's rows go up the memory (turned 180°: row y is memory row h − 1 − y).
    var rowsDescendInMemory: Bool { turn == .half }

    /// The surface's pixel for an opaque colour.
    func pixel(_ c: SDL_Color) -> UInt32 { SDL_MapRGB(format, c.r, c.g, c.b) }

    /// The surface's pixel format, for images made to be copied here.
    var pixelFormat: UInt32 { format.pointee.format }

    /// Sets pixels `from..<to` of pixel row `row` to `pixel` (a surface value); not clipped
    /// to `clip`, only to the surface.
    func fill(row: Int32, from: Int32, to: Int32, pixel: UInt32) {
        let from = max(0, from), to = min(bounds.w, to)
        guard row >= 0, row < bounds.h, from < to else { return }
        let (w, h) = (Int(bounds.w), Int(bounds.h))
        switch turn {
        case .none: Self.fill(pixels + Int(row) * stride + Int(from), count: Int(to - from), with: pixel)
        case .half: Self.fill(pixels + (h - 1 - Int(row)) * stride + w - Int(to), count: Int(to - from), with: pixel)
        case .quarter, .threeQuarters:
            // A column of the memory: gathered unturned, written a cache line at a time.
            Self.fill(strip.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.gather(row: row, from: from, to: to) },
                      count: Int(to - from), with: pixel)
        }
    }

    /// `count` pixels at `start` set to `pixel` by glibc's `wmemset`: a 32-bit fill with
    /// ordinary stores, vectorized. `wchar_t` is 32 bits on every Linux this builds for, but
    /// signed on x86_64 and unsigned on aarch64: the pixel goes through the platform's own
    /// type (`truncatingIfNeeded` is the bit pattern either way), never a fixed Int32/UInt32.
    static func fill(_ start: UnsafeMutablePointer<UInt32>, count: Int, with pixel: UInt32) {
        precondition(MemoryLayout<wchar_t>.size == MemoryLayout<UInt32>.size, "wchar_t is not 32 bits here")
        UnsafeMutableRawPointer(start).withMemoryRebound(to: wchar_t.self, capacity: count) {
            _ = wmemset($0, wchar_t(truncatingIfNeeded: pixel), count)
        }
    }

    /// One pixel, if it is on the surface.
    func set(x: Int32, y: Int32, pixel: UInt32) {
        guard x >= 0, y >= 0, x < bounds.w, y < bounds.h else { return }
        guard turn == .none else { return fill(row: y, from: x, to: x + 1, pixel: pixel) }
        pixels[Int(y) * stride + Int(x)] = pixel
    }

    /// Copies `count` pixels from `source` to pixel row `row` from x; only clipped to the
    /// surface.
    func copy(row: Int32, x: Int32, from source: UnsafePointer<UInt32>, count: Int32) {
        let skip = max(0, -x), end = min(bounds.w, x + count)
        guard row >= 0, row < bounds.h, x + skip < end else { return }
        let from = Int(x + skip), n = Int(end) - from, source = source + Int(skip)
        let (w, h) = (Int(bounds.w), Int(bounds.h))
        switch turn {
        case .none: (pixels + Int(row) * stride + from).update(from: source, count: n)
        case .half:
            // The row mirrored: the canvas's x is the memory's w − 1 − x.
            ovs_copy_reversed(pixels + (h - 1 - Int(row)) * stride + (w - 1 - from), source, Int32(n))
        case .quarter, .threeQuarters:
            strip.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.gather(row: row, from: Int32(from), to: end) }
                .update(from: source, count: n)
        }
    }

    /// Copies the rectangle `rows` × `x..<x + count` from `source` (its first row's first
    /// pixel; `pitch` pixels from one row to the next), only clipped to the surface: row by
    /// row (`copy(row:…)`), but at 90° and 270° band by band straight from the source
    /// (`TurnStrip.copy`), which is already rows laid side by side as the strip gathers them:
    /// a frame the flash covers is copied whole, and each of its rows copied into the strip
    /// first was twice the memory traffic of its turn.
    func copy(rows: Range<Int32>, x: Int32, from source: UnsafePointer<UInt32>, pitch: Int, count: Int32) {
        let skip = max(0, -x), end = min(bounds.w, x + count)
        let top = max(0, rows.lowerBound), bottom = min(bounds.h, rows.upperBound)
        guard top < bottom, x + skip < end else { return }
        guard let strip else {
            for row in top..<bottom { copy(row: row, x: x, from: source + Int(row - rows.lowerBound) * pitch, count: count) }
            return
        }
        let first = source + Int(top - rows.lowerBound) * pitch + Int(skip)
        strip._withUnsafeGuaranteedRef { $0.copy(rows: top..<bottom, from: x + skip, to: end, source: first, pitch: pitch) }
    }

    /// A colour blended over pixels at a fixed opacity (the threshold flash): each channel
    /// becomes p + (colour − p)·a, a in 256ths. Two channels at a time in one 32-bit word,
    /// so the compiler vectorizes it; SDL's blended fill works a channel at a time and cost
    /// a millisecond a frame.
    struct Tint {
        fileprivate let rb: UInt32, ag: UInt32, a: UInt32

        /// `pixel` (a surface value) at `alpha`, 0…1.
        init(pixel: UInt32, alpha: Double) {
            a = UInt32(max(0, min(256, (alpha * 256).rounded())))
            rb = pixel & 0x00FF_00FF
            ag = (pixel >> 8) & 0x00FF_00FF
        }

        func over(_ p: UInt32) -> UInt32 {
            let prb = p & 0x00FF_00FF, pag = (p >> 8) & 0x00FF_00FF
            // The channels are 8 bits apart in each word.
            let nrb = (prb &* (256 - a) &+ rb &* a) >> 8 & 0x00FF_00FF
            let nag = (pag &* (256 - a) &+ ag &* a) >> 8 & 0x00FF_00FF
            return nrb | nag << 8
        }
    }

    func tint(_ color: SDL_Color, alpha: Double) -> Tint { Tint(pixel: pixel(color), alpha: alpha) }

    /// `tint` over pixels `from..<to` of pixel row `row`; only clipped to the surface.
    func blend(row: Int32, from: Int32, to: Int32, _ tint: Tint) {
        assert(turn == .none, "a turned canvas is only filled and copied into")
        let from = max(0, from), to = min(bounds.w, to)
        guard row >= 0, row < bounds.h, from < to else { return }
        let line = UnsafeMutableBufferPointer(start: pixels + Int(row) * stride + Int(from), count: Int(to - from))
        for i in line.indices { line[i] = tint.over(line[i]) }
    }

    /// `tint` over every pixel inside `clip`.
    func blend(_ tint: Tint) {
        guard let r = clipped(bounds), tint.a > 0 else { return }
        for y in r.y..<(r.y + r.h) { blend(row: y, from: r.x, to: r.x + r.w, tint) }
    }

    /// A `width` × `height` image of non-premultiplied ARGB pixels blended with its own
    /// alpha at (`left`, `top`), inside `clip`, exactly as SDL 2.26 blends it
    /// (`SDL_BLENDMODE_BLEND`) onto a surface whose channels lie where ARGB's do: a
    /// transparent pixel leaves the surface alone, an opaque one replaces it, and between,
    /// each channel is ⌊s·a/256⌋ + ⌊d·(255 − a)/256⌋. Done here, an indicator costs no texture
    /// upload and no trip through the renderer's command queue.
    func blend(image: UnsafePointer<UInt32>, width: Int32, height: Int32, left: Int32, top: Int32) {
        assert(turn == .none, "a turned canvas is only filled and copied into")
        guard let r = clipped(SDL_Rect(x: left, y: top, w: width, h: height)) else { return }
        for y in r.y..<(r.y + r.h) {
            let source = image + Int(y - top) * Int(width) + Int(r.x - left)
            let line = UnsafeMutableBufferPointer(start: pixels + Int(y) * stride + Int(r.x), count: Int(r.w))
            for i in line.indices {
                let s = source[i], a = s >> 24
                if a == 0 { continue }
                if a == 255 { line[i] = s; continue }
                let d = line[i], keep = 255 - a
                // Two channels a word, 16 bits apart: no product reaches the next channel.
                let rb = ((s & 0x00FF_00FF) &* a) >> 8 & 0x00FF_00FF &+ (((d & 0x00FF_00FF) &* keep) >> 8 & 0x00FF_00FF)
                let ag = (((s >> 8) & 0x00FF_00FF) &* a) >> 8 & 0x00FF_00FF
                    &+ ((((d >> 8) & 0x00FF_00FF) &* keep) >> 8 & 0x00FF_00FF)
                line[i] = rb | ag << 8
            }
        }
    }

    /// `color` at opacity `alpha` (0…255) over a rectangle, inside `clip`, exactly as SDL
    /// 2.26's software renderer draws `SDL_RenderFillRectF` there: the corner and size cut
    /// to whole pixels toward zero (the size at least one), an opaque colour stored as is;
    /// otherwise the colour premultiplied once, c·a/255, and each channel (the alpha byte
    /// too, where the surface has one) becomes c + d·(255 − a)/255, in integers. The scroll
    /// bar is on screen whenever the list moves: through the renderer each of its pixel
    /// rows was a queued command and a blend a channel at a time. Returns false, drawing
    /// nothing, on a surface whose channels do not lie where ARGB's do.
    func fill(x: Float, y: Float, w: Float, h: Float, color: SDL_Color, alpha: UInt8) -> Bool {
        assert(turn == .none, "a turned canvas is only filled and copied into")
        let hasAlpha = pixelFormat == SDL_PIXELFORMAT_ARGB8888.rawValue
        guard hasAlpha || pixelFormat == SDL_PIXELFORMAT_RGB888.rawValue else { return false }
        // C's (int): toward zero (kept inside Int32, where a window's pixels are).
        func whole(_ v: Float) -> Int32 { Int32(max(-1e9, min(1e9, v.isNaN ? 0 : v))) }
        guard let r = clipped(SDL_Rect(x: whole(x), y: whole(y), w: max(1, whole(w)), h: max(1, whole(h)))) else { return true }
        if alpha == 255 {
            let solid = pixel(color)
            for row in r.y..<(r.y + r.h) { fill(row: row, from: r.x, to: r.x + r.w, pixel: solid) }
            return true
        }
        let a = UInt32(alpha), keep = 255 - a
        let cr = UInt32(color.r) * a / 255, cg = UInt32(color.g) * a / 255, cb = UInt32(color.b) * a / 255
        func over(_ d: UInt32) -> UInt32 {
            var out = ((d >> 16) & 0xFF) * keep / 255 + cr
            out = out << 8 | (((d >> 8) & 0xFF) * keep / 255 + cg)
            out = out << 8 | ((d & 0xFF) * keep / 255 + cb)
            if hasAlpha { out |= ((d >> 24) * keep / 255 + a) << 24 }
            return out
        }
        // The last pixel's blend kept: under the scroll bar, a fill of the window's height
        // squared over the list, nearly every pixel is its row's colour, as its neighbour
        // was (docs/performance.md, "Runs, not pixel lines").
        var before = pixels[Int(r.y) * stride + Int(r.x)], after = over(before)
        for row in r.y..<(r.y + r.h) {
            let line = UnsafeMutableBufferPointer(start: pixels + Int(row) * stride + Int(r.x), count: Int(r.w))
            for i in line.indices {
                let d = line[i]
                if d != before { (before, after) = (d, over(d)) }
                line[i] = after
            }
        }
        return true
    }

    /// `rect` cut to `clip` and to the surface: a clip may reach past the window (the
    /// overlays' rectangle under a flash, an indicator above the top edge).
    private func clipped(_ rect: SDL_Rect) -> SDL_Rect? {
        var a = rect, b = clip, window = bounds, inClip = SDL_Rect(), r = SDL_Rect()
        guard rect.w > 0, rect.h > 0, SDL_IntersectRect(&a, &b, &inClip) == SDL_TRUE,
              SDL_IntersectRect(&inClip, &window, &r) == SDL_TRUE else { return nil }
        return r
    }
}
