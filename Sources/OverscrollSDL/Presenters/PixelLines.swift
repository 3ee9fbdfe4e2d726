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

    /// What a row holds when that is not known (a buffer's, `RingBuffers`): a span that ends
    /// before it starts, which no frame describes, so it shows no line and a change from it
    /// is every pixel. A line, not an optional one: the walks read it as two words.
    static var unknown: PixelLine {
        var line = PixelLine(fill: 0)
        line.left = 1
        return line
    }

    /// Whether the two lines put the same pixels on screen: every field but `slot`, as two
    /// 64-bit words, `slot`'s bytes masked (the walks of every line a frame ask this of
    /// each line; field by field it was a dozen loads and branches).
    @inline(__always)
    func shows(_ other: PixelLine) -> Bool {
        let a = unsafeBitCast(self, to: (UInt64, UInt64).self), b = unsafeBitCast(other, to: (UInt64, UInt64).self)
        return a.0 == b.0 && (a.1 ^ b.1) & Self.slotMasked == 0
    }

    /// `shows` of two lines in memory, read as words where they lie (`shows` on values
    /// builds the words from the fields first): the walks of every line a frame.
    @inline(__always)
    static func same(_ a: UnsafePointer<PixelLine>, _ b: UnsafePointer<PixelLine>) -> Bool {
        let a = UnsafeRawPointer(a), b = UnsafeRawPointer(b)
        return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
            && (a.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                & slotMasked == 0
    }

    /// How many lines from the first `a` and `b` agree on (`same`), up to `count`: a walk
    /// skips the stretch that shows what it showed in a loop of its own, nothing else in it.
    @inline(__always)
    static func agreeing(_ a: UnsafePointer<PixelLine>, _ b: UnsafePointer<PixelLine>, count: Int) -> Int {
        var i = 0
        while i < count, same(a + i, b + i) { i += 1 }
        return i
    }

    /// The second word without `slot`: `imageLine`, `slot` and `image` lie in it in that
    /// order, from its low bytes (`PixelLineTests` holds the layout to it).
    static var slotMasked: UInt64 { 0xFFFF_FFFF_0000_FFFF }

    /// The pixels [from, to) of a line to write so that it shows `new` where it showed
    /// `old`; from ≥ to when none.
    @inline(__always)
    static func change(from old: PixelLine, to new: PixelLine, width: Int32) -> (Int32, Int32) {
        if old.shows(new) { return (width, 0) }
        if old.fill != new.fill || old.left > old.right { return (0, width) }
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

extension Array where Element == LineImage {
    /// Where pixel `x` of line `line` of the image in `slot` (1 on) lies. Read in place: a
    /// copy of the `LineImage` retains its owner and releases it again, two atomic
    /// operations a row written (a twentieth of a portrait frame's CPU samples,
    /// `swift_release` under `RingBuffers.write`; docs/performance.md).
    @inline(__always)
    func source(slot: UInt16, line: UInt16, x: Int32) -> UnsafePointer<UInt32> {
        precondition(slot > 0 && Int(slot) <= count, "a line's slot names no image")
        return withUnsafeBufferPointer { images in
            let image = images.baseAddress! + (Int(slot) - 1)
            return image.pointee.pixels + Int(line) * image.pointee.stride + Int(x - image.pointee.left)
        }
    }
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
        let source = images.source(slot: line.slot, line: line.imageLine, x: spanFrom)
        self.fill(row: row, from: from, to: spanFrom, pixel: fill)
        copy(row: row, x: spanFrom, from: source, count: spanTo - spanFrom)
        if let flash { blend(row: row, from: spanFrom, to: spanTo, flash) }
        self.fill(row: row, from: spanTo, to: to, pixel: fill)
    }
}
