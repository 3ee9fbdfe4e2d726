import CDRM
import OverscrollKit

/// Where a canvas turned a quarter (90° or 270°, `WindowCanvas`'s turn) gathers its rows
/// before they reach the buffer: a blocked transpose. Such a canvas's row is a column of
/// the memory, so writing it as it comes is one 4-byte store on a cache line of its own
/// per pixel (a column of 800 lines is 51 KB, past L1: every store missed; on a dumb
/// buffer, often write-combined memory, a lone store costs a bus transaction). Here the
/// rows land first in a strip of `rows` canvas rows, unturned and contiguous — the rows
/// that make `rows` neighbouring memory columns, 64 bytes: one cache line of each memory
/// row — and each memory row then gets its piece of them as one run (`finish`).
///
/// A band is flushed (written to memory) when a write lands in another band, or on a row
/// of this band outside what that row gathered (neither overlapping nor touching it: a
/// row keeps one range, so a pixel between two ranges is never written); and by `finish`,
/// which whoever writes a turned canvas calls before the buffer is shown. Pixels are
/// written in the order given: a later write over an earlier one lands over it, in the
/// strip or after a flush. Made once per size by the presenter that writes turned
/// buffers (`reserve`): a frame allocates nothing.
final class TurnStrip {
    /// Canvas rows a band gathers: 16 pixels of 4 bytes, a memory row's cache line.
    static let rows = 16

    /// The canvas rows of the band canvas row `row` lies in, on a canvas `height` rows tall
    /// turned 90° (`quarter`) or 270°: the rows that make `rows` neighbouring memory
    /// columns (`WindowCanvas.rowsWrittenWith`).
    @inline(__always)
    static func band(of row: Int32, height h: Int32, quarter: Bool) -> Range<Int32> {
        let n = Int32(rows)
        if quarter {
            // Memory column h − 1 − row; its band's columns are the rows below.
            let band = (h - 1 - row) / n
            return max(0, h - n - band * n)..<(h - band * n)
        }
        let band = row / n
        return (band * n)..<min(h, band * n + n)
    }

    /// Pixels a strip row holds, and from one strip row to the next (padded past a
    /// multiple of 4 KiB, where the 16 rows would share the same L1 sets).
    private(set) var capacity = 0
    private var pitch = 0
    private var scratch: UnsafeMutablePointer<UInt32>
    /// Each slot's (band row's) range gathered, `from[s]..<to[s]` (empty: from ≥ to); and
    /// room for their ends, sorted, at a flush.
    private let from: UnsafeMutablePointer<Int32>
    private let to: UnsafeMutablePointer<Int32>
    private let ends: UnsafeMutablePointer<Int32>
    /// A band's rows' colours for `fillBand`, as its writer gives them (from the band's
    /// first canvas row on), and in the memory's order.
    let pattern: UnsafeMutablePointer<UInt32>
    private let patternInMemory: UnsafeMutablePointer<UInt32>
    /// `fillBand` streamed stores that no fence has ordered yet.
    private var unfenced = false

    /// The canvas written through it (`begin`): its memory, pixels from one memory row to
    /// the next, the canvas's size and how it is turned.
    private var pixels: UnsafeMutablePointer<UInt32>?
    private var stride = 0
    private var width: Int32 = 0
    private var height: Int32 = 0
    private var quarter = true
    /// The band open (its first memory column over `rows`), and whether it holds anything.
    private var band = -1
    private var pending = false

    /// A strip for canvases up to `width` pixels wide.
    init(width: Int = 0) {
        scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        from = .allocate(capacity: Self.rows)
        to = .allocate(capacity: Self.rows)
        ends = .allocate(capacity: 2 * Self.rows)
        pattern = .allocate(capacity: Self.rows)
        patternInMemory = .allocate(capacity: Self.rows)
        pattern.initialize(repeating: 0, count: Self.rows)
        patternInMemory.initialize(repeating: 0, count: Self.rows)
        from.initialize(repeating: 0, count: Self.rows)
        to.initialize(repeating: 0, count: Self.rows)
        ends.initialize(repeating: 0, count: 2 * Self.rows)
        reserve(width: width)
    }

    deinit {
        scratch.deallocate()
        from.deallocate()
        to.deallocate()
        ends.deallocate()
        pattern.deallocate()
        patternInMemory.deallocate()
    }

    /// Room for canvases `width` pixels wide: made anew only when it is wider than before
    /// (what it held is dropped: call it between frames).
    func reserve(width: Int) {
        guard width > capacity else { return }
        scratch.deallocate()
        capacity = width
        pitch = (width + 15) & ~15
        if pitch % 1024 == 0 { pitch += 16 }
        scratch = .allocate(capacity: pitch * Self.rows)
        clear()
        band = -1
    }

    /// From now on, gathers for a canvas `width` × `height` over `pixels` turned by `turn`
    /// (90° or 270°). What an earlier canvas left unfinished is dropped, not written: its
    /// memory may be gone, and a missed `finish` shows as pixels missing.
    func begin(pixels: UnsafeMutablePointer<UInt32>, stride: Int, width: Int32, height: Int32, turn: ScreenRotation) {
        precondition(turn.crosswise, "a strip gathers for a canvas turned 90° or 270°")
        precondition(Int(width) <= capacity, "a strip \(capacity) pixels wide for a canvas \(width) wide")
        clear()
        self.pixels = pixels
        self.stride = stride
        self.width = width
        self.height = height
        quarter = turn == .quarter
        band = -1
    }

    /// Where canvas row `row`'s pixels `from..<to` (inside the canvas) go in the strip:
    /// the caller stores them there at once. Flushes first where the strip cannot hold
    /// them with what it has.
    func gather(row: Int32, from f: Int32, to t: Int32) -> UnsafeMutablePointer<UInt32> {
        // The memory column the row is: 90° turns row y into column height − 1 − y.
        let column = Int(quarter ? height - 1 - row : row)
        let band = column / Self.rows, slot = column % Self.rows
        if band != self.band {
            flush()
            self.band = band
        } else if from[slot] < to[slot], f > to[slot] || t < from[slot] {
            flush()
        }
        if from[slot] < to[slot] {
            from[slot] = min(from[slot], f)
            to[slot] = max(to[slot], t)
        } else {
            from[slot] = f
            to[slot] = t
        }
        pending = true
        return scratch + slot * pitch + Int(f)
    }

    /// Writes what the strip holds to memory, in order before whatever follows (the buffer
    /// shown): what a turned canvas's writer calls once it is written.
    func finish() {
        guard pending || unfenced else { return }
        flush()
        ovs_turn_fence()
        unfenced = false
    }

    /// Canvas rows `rows` (one band: `WindowCanvas.rowsWrittenWith`), each one colour over
    /// pixels `f..<t` (`pattern`, a colour a row from the band's first on), written to
    /// memory now: each memory row gets the band's colours as one run, with nothing
    /// gathered and nothing turned. A list's band is mostly its rows' backgrounds around
    /// their text, and turning them (`ovs_turn_rows`) was a turned frame's largest cost.
    /// What the strip holds is written first, so writes still land in the order given.
    func fillBand(rows: Range<Int32>, from f: Int32, to t: Int32) {
        guard let pixels, f < t, !rows.isEmpty, rows.count <= Self.rows else { return }
        flush()
        let n = rows.count, w = Int(width)
        // 90°: canvas row y is memory column height − 1 − y, so the band's last row is its
        // first column; 270°: column y.
        let firstColumn = Int(quarter ? height - rows.upperBound : rows.lowerBound)
        for k in 0..<n { patternInMemory[k] = pattern[quarter ? n - 1 - k : k] }
        let x = Int(f)
        ovs_fill_band(pixels + (quarter ? x : w - 1 - x) * stride + firstColumn, quarter ? stride : -stride,
                      patternInMemory, Int32(n), t - f)
        unfenced = true
    }

    /// Canvas rows `rows`, pixels `f..<t` of each, from `source` (row `rows.lowerBound`'s
    /// pixel `f`; `pitch` pixels from one row to the next), written to memory now a band at
    /// a time, turned straight from the source: it is laid out as the strip would gather it.
    /// What the strip holds is written first.
    func copy(rows: Range<Int32>, from f: Int32, to t: Int32, source: UnsafePointer<UInt32>, pitch: Int) {
        guard let pixels, f < t, !rows.isEmpty else { return }
        flush()
        let w = Int(width), x = Int(f)
        let step = quarter ? stride : -stride, line = pixels + (quarter ? x : w - 1 - x) * stride
        var row = rows.lowerBound
        while row < rows.upperBound {
            // The band row lies in, cut to the rectangle.
            let band = Self.band(of: row, height: height, quarter: quarter)
            let a = max(band.lowerBound, rows.lowerBound), b = min(band.upperBound, rows.upperBound)
            // 90°: the band's memory columns run up the canvas, its last row first.
            let firstColumn = Int(quarter ? height - b : a)
            let firstRow = source + Int((quarter ? b - 1 : a) - rows.lowerBound) * pitch
            ovs_turn_rows(line + firstColumn, step, firstRow, quarter ? -pitch : pitch, Int32(b - a), t - f)
            row = b
        }
        unfenced = true
    }

    /// Writes what the open band gathered to memory: each memory row a canvas column
    /// crosses gets the band's pixels on it as one run where their rows cover it.
    private func flush() {
        guard pending, let pixels else { return }
        let w = Int(width), firstColumn = band * Self.rows
        // 90°: canvas x is memory row x; 270°: memory row w − 1 − x.
        let step = quarter ? stride : -stride
        // The usual band: all its rows gathered the same range (a ring's band is given the
        // union of its rows' changes, `RingBuffers`): one block, without the ends sorted
        // (the sort and masks were a third of a turned frame's turn, callgrind).
        let a = from[0], b = to[0]
        if a < b, (1..<Self.rows).allSatisfy({ from[$0] == a && to[$0] == b }) {
            let x = Int(a)
            ovs_turn_rows(pixels + (quarter ? x : w - 1 - x) * stride + firstColumn, step, scratch + x, pitch, Int32(Self.rows), b - a)
            return clear()
        }
        // Between two consecutive ends of the slots' ranges the same slots are written:
        // each such stretch is a block, written a memory row at a time.
        var count = 0
        for s in 0..<Self.rows where from[s] < to[s] {
            ends[count] = from[s]
            ends[count + 1] = to[s]
            count += 2
        }
        for i in 1..<max(1, count) {
            let e = ends[i]
            var j = i
            while j > 0, ends[j - 1] > e {
                ends[j] = ends[j - 1]
                j -= 1
            }
            ends[j] = e
        }
        for i in 0..<max(0, count - 1) {
            let a = ends[i], b = ends[i + 1]
            guard a < b else { continue }
            var mask: UInt32 = 0
            for s in 0..<Self.rows where from[s] <= a && b <= to[s] { mask |= 1 << UInt32(s) }
            guard mask != 0 else { continue }
            let x = Int(a), n = Int32(b - a)
            let line = pixels + (quarter ? x : w - 1 - x) * stride + firstColumn
            let low = mask.trailingZeroBitCount, run = mask >> UInt32(low)
            if run & (run &+ 1) == 0 {
                // The slots written are neighbours: one run a memory row.
                ovs_turn_rows(line + low, step, scratch + low * pitch + x, pitch, Int32(run.nonzeroBitCount), n)
            } else {
                for s in 0..<Self.rows where mask & (1 << UInt32(s)) != 0 {
                    ovs_turn_rows(line + s, step, scratch + s * pitch + x, pitch, 1, n)
                }
            }
        }
        clear()
    }

    /// The strip empty.
    private func clear() {
        pending = false
        for s in 0..<Self.rows {
            from[s] = 0
            to[s] = 0
        }
    }
}
