import CSDL

/// What each pixel row of the list shows on the CPU path — the list only, under the
/// overlays — so a frame writes just the pixels that differ from what is on screen.
///
/// A pixel row of the list is one colour with at most one span copied from a line of a
/// row's image (the gap, a separator and the background below the last row have no
/// span). Written into the window surface, the list costs memory bandwidth, not
/// arithmetic: a 480×800 frame is 1.5 MB, and on a small board sharing its memory with
/// the display server, writing it every frame of a scroll was most of the program's CPU.
/// When the list moves, most of a zebra row's background lands on background of the same
/// colour; only the text's span (where it was and where it is) and the lines whose colour
/// changed are written — the way a toolkit's damage tracking would, at the granularity of
/// a pixel row.
struct ListLines {
    /// One pixel row's content, in 16 bytes: a frame compares every line of the window
    /// with what is shown, so two of them fit in the cache line a 32-byte line took.
    struct Line {
        /// The surface's pixel value outside the span.
        var fill: UInt32
        /// The span [left, right) in pixels, copied from an image's line; empty when
        /// left == right.
        var left: Int16 = 0
        var right: Int16 = 0
        /// Which image line the span shows: the line, and the image's serial (0: none),
        /// compared instead of the pixels' address, which a later image may reuse. The
        /// serial is cut to 32 bits: two images alike in it are four billion compositions
        /// apart.
        var imageLine: UInt16 = 0
        /// Where this frame's image is: 1 + its index in `images` (0: none).
        var slot: UInt16 = 0
        var image: UInt32 = 0

        init(fill: UInt32) { self.fill = fill }

        /// Whether the two lines put the same pixels on screen.
        func shows(_ other: Line) -> Bool {
            fill == other.fill && left == other.left && right == other.right
                && image == other.image && imageLine == other.imageLine
        }
    }

    /// An image the frame shows: its pixels, pixels per line, and its left edge in the window.
    private struct Source {
        var pixels: UnsafePointer<UInt32>
        var stride: Int
        var left: Int32
    }

    /// What the window surface shows under the overlays, one entry a pixel row.
    private var shown: [Line] = []
    /// The frame being described; swapped with `shown` once written.
    private var next: [Line] = []
    /// The images `next` (then `shown`) points into, by slot. Valid until the next `begin`:
    /// images are only dropped while a frame is described (`RowImages.beginFrame`).
    private var images: [Source] = []
    private var width: Int32 = 0
    /// Whether `shown` is what the surface holds (false: the next frame writes it all).
    var valid = false

    /// Starts describing a frame `width` × `height` pixels: every line `fill` until set.
    mutating func begin(width: Int32, height: Int32, fill: UInt32) {
        if next.count != Int(height) || self.width != width {
            // A new size: everything is written (storage is only made again here).
            valid = false
            shown = Array(repeating: Line(fill: 0), count: Int(height))
            next = shown
            self.width = width
        }
        let blank = Line(fill: fill)
        for y in next.indices { next[y] = blank }
        images.removeAll(keepingCapacity: true)
    }

    /// Sets the pixel rows `from..<to` (clipped to the window) to `line`.
    mutating func set(from: Int32, to: Int32, _ line: Line) {
        let low = max(0, Int(from)), high = min(next.count, Int(to))
        guard low < high else { return }
        for y in low..<high { next[y] = line }
    }

    /// Sets the pixel rows `from..<to` to successive lines of an image, from its first:
    /// each shows the line's ink (`RowImages.Raster`) at x `left` on, at most `width` of it,
    /// cut to the window.
    /// A line without ink is the fill alone, like any other line of that colour.
    mutating func setImage(from: Int32, to: Int32, fill: UInt32, left: Int32, width: Int32, serial: Int,
                           raster: RowImages.Raster, stride: Int32) {
        let low = max(0, Int(from)), high = min(next.count, Int(to))
        guard low < high, images.count < Int(UInt16.max) else { return }
        images.append(Source(pixels: raster.pixels, stride: Int(stride), left: left))
        let slot = UInt16(images.count), serial = UInt32(truncatingIfNeeded: serial)
        for y in low..<high {
            let line = Int32(y) - from
            let ink = raster.ink(line: line)
            // The ink's pixels on screen: inside the image's shown width and the window.
            let spanFrom = max(left + ink.from, 0), spanTo = min(left + min(ink.to, width), self.width)
            var shown = Line(fill: fill)
            if spanFrom < spanTo {
                shown.left = Int16(spanFrom)
                shown.right = Int16(spanTo)
                shown.imageLine = UInt16(line)
                shown.slot = slot
                shown.image = serial
            }
            next[y] = shown
        }
    }

    /// Writes the described frame into `canvas`: every line if `valid` is false, else only
    /// the spans that differ from what is shown, plus what lies under `covered` (the
    /// overlays drawn over the list last frame, which are not list pixels). Returns the
    /// first and last pixel rows written, nil if none.
    ///
    /// With `flash`, every line is written with it blended over: a fill's colour is blended
    /// once, only the spans pixel by pixel, instead of blending the whole window after.
    /// `rewrite` still writes the lines themselves (under the overlays, which take the
    /// flash after them); the caller marks the lines not `valid` once the frame is done.
    mutating func write(to canvas: WindowCanvas, uncovering covered: [SDL_Rect],
                        flash: WindowCanvas.Tint? = nil) -> (top: Int32, bottom: Int32)? {
        var top = Int32.max, bottom = Int32.min
        let width = self.width, everything = !valid || flash != nil
        // 800 to 2000 lines a frame: read through buffers, without a bounds check each.
        shown.withUnsafeBufferPointer { shown in
            next.withUnsafeBufferPointer { next in
                covered.withUnsafeBufferPointer { covered in
                    for y in next.indices {
                        let new = next[y], row = Int32(y)
                        var from: Int32 = width, to: Int32 = 0
                        if everything {
                            from = 0; to = width
                        } else {
                            let old = shown[y]
                            if old.fill != new.fill {
                                from = 0; to = width
                            } else if !old.shows(new) {
                                // Same colour: only where either span lies can a pixel differ.
                                if old.left < old.right { from = Int32(old.left); to = Int32(old.right) }
                                if new.left < new.right { from = min(from, Int32(new.left)); to = max(to, Int32(new.right)) }
                            }
                        }
                        if let flash {
                            write(new, row: row, from: from, to: to, into: canvas, flash: flash)
                            top = min(top, row); bottom = max(bottom, row)
                            continue
                        }
                        if from < to { write(new, row: row, from: from, to: to, into: canvas) }
                        var touched = from < to
                        for r in covered where r.y <= row && row < r.y + r.h && (r.x < from || r.x + r.w > to) {
                            write(new, row: row, from: r.x, to: r.x + r.w, into: canvas)
                            touched = true
                        }
                        if touched { top = min(top, row); bottom = max(bottom, row) }
                    }
                }
            }
        }
        swap(&shown, &next)
        valid = true
        return top <= bottom ? (top, bottom) : nil
    }

    /// Writes the shown lines again inside `rect` (under overlays that changed).
    func rewrite(_ rect: SDL_Rect, into canvas: WindowCanvas) {
        let low = max(0, Int(rect.y)), high = min(shown.count, Int(rect.y + rect.h))
        guard valid, low < high else { return }
        for y in low..<high { write(shown[y], row: Int32(y), from: rect.x, to: rect.x + rect.w, into: canvas) }
    }

    /// Pixels `from..<to` of one line: the fill, the span's pixels where it lies; with
    /// `flash` blended over them.
    private func write(_ line: Line, row: Int32, from: Int32, to: Int32, into canvas: WindowCanvas,
                       flash: WindowCanvas.Tint? = nil) {
        let from = max(0, from), to = min(canvas.bounds.w, to)
        guard from < to else { return }
        let fill = flash?.over(line.fill) ?? line.fill
        let spanFrom = max(from, Int32(line.left)), spanTo = min(to, Int32(line.right))
        guard line.slot > 0, spanFrom < spanTo else {
            canvas.fill(row: row, from: from, to: to, pixel: fill)
            return
        }
        let image = images[Int(line.slot) - 1]
        let source = image.pixels + Int(line.imageLine) * image.stride + Int(spanFrom - image.left)
        canvas.fill(row: row, from: from, to: spanFrom, pixel: fill)
        canvas.copy(row: row, x: spanFrom, from: source, count: spanTo - spanFrom)
        if let flash { canvas.blend(row: row, from: spanFrom, to: spanTo, flash) }
        canvas.fill(row: row, from: spanTo, to: to, pixel: fill)
    }
}
