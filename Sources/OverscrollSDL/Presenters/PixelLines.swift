import CSDL

/// One pixel row's content, in 16 bytes: one colour with at most one span copied from a
/// line of an image (`ListLines` describes the list so; a frame compares every line of the
/// window with what is shown, so two of them fit in the cache line a 32-byte line took).
/// It is the form the list's ring is handed to a presenter in (`RingRows`), which writes
/// a buffer's rows from it: defined here, beside the canvas it is written into, so the
/// presenter reads a value handed forward, not the drawing's code.
struct PixelLine {
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
    /// Where this frame's image is: 1 + its index in the images the lines show
    /// (`LineImage`; 0: none).
    var slot: UInt16 = 0
    var image: UInt32 = 0

    init(fill: UInt32) { self.fill = fill }

    /// Whether the two lines put the same pixels on screen.
    func shows(_ other: PixelLine) -> Bool {
        fill == other.fill && left == other.left && right == other.right
            && image == other.image && imageLine == other.imageLine
    }

    /// The pixels [from, to) of a line to write so that it shows `new` where it showed
    /// `old`; from ≥ to when none.
    static func change(from old: PixelLine, to new: PixelLine, width: Int32) -> (Int32, Int32) {
        if old.fill != new.fill { return (0, width) }
        if old.shows(new) { return (width, 0) }
        // Same colour: only where either span lies can a pixel differ.
        var from = width, to: Int32 = 0
        if old.left < old.right { from = Int32(old.left); to = Int32(old.right) }
        if new.left < new.right { from = min(from, Int32(new.left)); to = max(to, Int32(new.right)) }
        return (from, to)
    }
}

/// An image lines show: its pixels, pixels per line, and its left edge in the window.
/// Holds the image (`owner`), so the pixels stay while a line shows them.
struct LineImage {
    let owner: AnyObject
    let pixels: UnsafePointer<UInt32>
    var stride: Int
    var left: Int32
}

/// What each row of the list's ring shows (`ListLines`' ring), read only: handed to the
/// presenter in the frame's value (`RingFrame.lines`), which writes the rows its buffers
/// lack from it. Two arrays the painter owns and writes again in place next frame: a
/// presenter reads them during the present and keeps neither (kept, the painter's next
/// write would copy them).
struct RingRows {
    /// What each ring row shows, by ring row; empty before the ring's first frame.
    let lines: [PixelLine]
    /// The images the lines show, by slot.
    let images: [LineImage]

    var count: Int32 { Int32(lines.count) }
    subscript(_ row: Int32) -> PixelLine { lines[Int(row)] }

    /// Writes pixels `from..<to` of ring row `row` into `canvas`'s pixel row `at`.
    func write(_ row: Int32, from: Int32, to: Int32, into canvas: WindowCanvas, at: Int32) {
        canvas.write(lines[Int(row)], row: at, from: from, to: to, images: images)
    }
}

extension WindowCanvas {
    /// Pixels `from..<to` of `line` into pixel row `row`: the fill, the span's pixels (from
    /// `images`) where it lies; with `flash` blended over them. Inlined where it is called,
    /// as the loops over a frame's rows had it: a call of its own took more instructions.
    @inline(__always)
    func write(_ line: PixelLine, row: Int32, from: Int32, to: Int32, images: [LineImage], flash: Tint? = nil) {
        let from = max(0, from), to = min(bounds.w, to)
        guard from < to else { return }
        let fill = flash?.over(line.fill) ?? line.fill
        let spanFrom = max(from, Int32(line.left)), spanTo = min(to, Int32(line.right))
        guard line.slot > 0, spanFrom < spanTo else {
            self.fill(row: row, from: from, to: to, pixel: fill)
            return
        }
        let image = images[Int(line.slot) - 1]
        let source = image.pixels + Int(line.imageLine) * image.stride + Int(spanFrom - image.left)
        self.fill(row: row, from: from, to: spanFrom, pixel: fill)
        copy(row: row, x: spanFrom, from: source, count: spanTo - spanFrom)
        if let flash { blend(row: row, from: spanFrom, to: spanTo, flash) }
        self.fill(row: row, from: spanTo, to: to, pixel: fill)
    }
}
