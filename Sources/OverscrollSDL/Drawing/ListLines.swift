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
    /// One pixel row's content (`PixelLine`, the form the ring is handed on in).
    typealias Line = PixelLine

    /// What the window surface shows under the overlays, one entry a pixel row.
    private var shown: [Line] = []
    /// The frame being described; swapped with `shown` once written.
    private var next: [Line] = []
    /// The images `shown` shows, by slot, and the ones `next` will. Each holds its image:
    /// an image `RowImages` drops while a line still shows it lives until that line goes.
    private var images: [LineImage] = []
    private var nextImages: [LineImage] = []
    private var width: Int32 = 0
    /// Lines described beyond each of the window's top and bottom edges (`begin`): line
    /// `ahead + y` is window row y. Only a ring shows them (`writeRing`), to a display that
    /// writes rows before they scroll in (`ListRing.ahead`).
    private(set) var ahead: Int32 = 0

    /// Starts describing a frame `width` × `height` pixels, and `ahead` rows beyond its top
    /// and bottom edges (window rows −ahead..<height + ahead): every line `fill` until set.
    /// Returns whether the size changed: then `shown` is not what the screen holds and
    /// everything must be written.
    mutating func begin(width: Int32, height: Int32, fill: UInt32, ahead: Int32 = 0) -> Bool {
        var resized = false
        let ahead = max(0, ahead), height = height + 2 * ahead
        if next.count != Int(height) || self.width != width || self.ahead != ahead {
            self.ahead = ahead
            // A new size: everything is written (storage is only made again here), the
            // ring's rows too.
            resized = true
            shown = Array(repeating: Line(fill: 0), count: Int(height))
            next = shown
            ring.removeAll()
            self.width = width
        }
        // Through a pointer: a store a line, not an array's checks (docs/performance.md,
        // "The rows' walks").
        next.withUnsafeMutableBufferPointer { $0.update(repeating: Line(fill: fill)) }
        nextImages.removeAll(keepingCapacity: true)
        return resized
    }

    /// Sets the pixel rows `from..<to` (clipped to the window) to `line`.
    mutating func set(from: Int32, to: Int32, _ line: Line) {
        let low = max(0, Int(from + ahead)), high = min(next.count, Int(to + ahead))
        guard low < high else { return }
        next.withUnsafeMutableBufferPointer { ($0.baseAddress! + low).update(repeating: line, count: high - low) }
    }

    /// Sets the pixel rows `from..<to` to successive lines of an image, from its first:
    /// each shows the line's ink (`RowImages.Raster`) at x `left` on, at most `width` of it,
    /// cut to the window.
    /// A line without ink is the fill alone, like any other line of that colour.
    mutating func setImage(from: Int32, to: Int32, fill: UInt32, left: Int32, width: Int32, image: RowImage) {
        let low = max(0, Int(from + ahead)), high = min(next.count, Int(to + ahead))
        guard low < high, nextImages.count < Int(UInt16.max), let raster = image.raster else { return }
        nextImages.append(LineImage(owner: image, pixels: raster.pixels, stride: Int(image.width), left: left))
        let slot = UInt16(nextImages.count), serial = UInt32(truncatingIfNeeded: image.serial)
        let window = self.width, first = ahead + from
        // Through a pointer, in wrapping arithmetic (a line of an image inside the window:
        // none overflows): a third of the list's description was this loop's checks.
        next.withUnsafeMutableBufferPointer { next in
            for y in low..<high {
                let line = Int32(truncatingIfNeeded: y) &- first
                let ink = raster.ink(line: line)
                // The ink's pixels on screen: inside the image's shown width and the window.
                let spanFrom = max(left &+ ink.from, 0), spanTo = min(left &+ min(ink.to, width), window)
                var shown = Line(fill: fill)
                if spanFrom < spanTo {
                    shown.left = Int16(truncatingIfNeeded: spanFrom)
                    shown.right = Int16(truncatingIfNeeded: spanTo)
                    shown.imageLine = UInt16(truncatingIfNeeded: line)
                    shown.slot = slot
                    shown.image = serial
                }
                next[y] = shown
            }
        }
    }

    /// Writes the described frame into `canvas`: every line if `everything`, else only
    /// the spans that differ from what is shown, plus what lies under `covered` (the
    /// overlays drawn over the list last frame, which are not list pixels). Returns the
    /// first and last pixel rows written, nil if none.
    ///
    /// With `flash`, every line is written with it blended over: a fill's colour is blended
    /// once, only the spans pixel by pixel, instead of blending the whole window after.
    /// `rewrite` still writes the lines themselves (under the overlays, which take the
    /// flash after them); the screen then holds no list pixels (`Screen.flashed`).
    mutating func write(to canvas: WindowCanvas, everything: Bool, uncovering covered: [SDL_Rect],
                        flash: WindowCanvas.Tint? = nil) -> (top: Int32, bottom: Int32)? {
        var top = Int32.max, bottom = Int32.min
        let width = self.width, everything = everything || flash != nil
        swap(&images, &nextImages)
        // 800 to 2000 lines a frame: read through buffers, without a bounds check each.
        shown.withUnsafeBufferPointer { shown in
            next.withUnsafeBufferPointer { next in
                covered.withUnsafeBufferPointer { covered in
                    // The window's lines only: those beyond its edges are the ring's.
                    for y in Int(ahead)..<(next.count - Int(ahead)) {
                        let new = next[y], row = Int32(y) - ahead
                        let (from, to) = everything ? (0, width) : PixelLine.change(from: shown[y], to: new, width: width)
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
        return top <= bottom ? (top, bottom) : nil
    }

    // MARK: The ring

    /// What each row of the ring (`ListRing`) holds, by ring row; empty until first written.
    private var ring: [Line] = []
    /// The images `ring` shows, by slot: a frame drawn without the ring (the flash's)
    /// replaces `images` and leaves the ring as it was.
    private var ringImages: [LineImage] = []
    /// The ring row the window's top row shows.
    private(set) var ringFirst: Int32 = 0
    /// Pixels the last `writeRing` wrote (the benchmark's and the tests' figure).
    private(set) var ringPixelsWritten = 0
    /// The lines (window row y is line `ahead` + y) whose ring rows the last `writeRing`
    /// wrote, as bands in order: a scroll writes the rows it brings into view and the rows
    /// that stay put on screen (the gap above the list), far apart.
    private(set) var ringRowsWritten: [Range<Int32>] = []

    /// Writes the described frame into `canvas`, a ring of as many pixel rows as lines
    /// described (the window's, and `ahead` beyond each edge) (`ListRing`; nil: a ring kept
    /// as lines only, whose display writes its rows from them, `ringRows`), line y to ring
    /// row (`ringFirst` + y) mod their count, where `ringFirst`
    /// is first chosen so the ring already holds as much of the frame as it can: a list
    /// that moved k rows is shown from k rows further on, and only the rows it brings into
    /// view are written. Returns the window rows whose ring row was written, top and bottom
    /// (beyond the window where only lines ahead were), nil if none. The frame is then what
    /// is shown (`rewrite` reads it).
    mutating func writeRing(into canvas: WindowCanvas?) -> (top: Int32, bottom: Int32)? {
        let height = next.count, width = self.width
        var held: [Line] = []
        swap(&held, &ring)
        defer { swap(&held, &ring) }
        let known = held.count == height
        var clean = false
        if !known {
            held = Array(repeating: Line(fill: 0), count: height)
            ringFirst = 0
        } else {
            (ringFirst, clean) = bestFirst(held)
        }
        var written = 0, top = Int32.max, bottom = Int32.min
        ringRowsWritten.removeAll(keepingCapacity: true)
        let first = Int(ringFirst)
        swap(&images, &nextImages)
        // Element by element: sharing the array would copy it when `images` next changes.
        // A ring with pixels (X11's) is never read as lines (`ringRows`): none, each image
        // copied cost a retain and a release.
        ringImages.removeAll(keepingCapacity: true)
        if canvas == nil { ringImages.append(contentsOf: images) }
        held.withUnsafeMutableBufferPointer { held in
            next.withUnsafeBufferPointer { next in
                guard let ring = held.baseAddress, let lines = next.baseAddress else { return }
                // No pixel to write (`bestFirst` counted none): the ring takes the frame's
                // lines as they are, not compared again one by one. Otherwise only the lines
                // that differ from their ring row's are looked at, and the ring takes the
                // frame's lines the same way after (stored line by line in the loop, they
                // cost more). Lines 0..<split lie at ring rows `first` on, the rest from row
                // 0: two stretches, each walked to its next line that differs
                // (`PixelLine.agreeing`).
                let split = height - first
                var at = 0
                while !clean, at < height {
                    let (end, shift) = at < split ? (split, first) : (height, -split)
                    if known { at += PixelLine.agreeing(ring + (at + shift), lines + at, count: end - at) }
                    guard at < end else { continue }
                    let y = at, slot = at + shift, new = lines[y]
                    at += 1
                    let (from, to) = known ? PixelLine.change(from: ring[slot], to: new, width: width) : (0, width)
                    guard from < to else { continue }
                    if let canvas { write(new, row: Int32(slot), from: from, to: to, into: canvas) }
                    written += Int(to - from)
                    top = min(top, Int32(y)); bottom = max(bottom, Int32(y))
                    if let last = ringRowsWritten.last, last.upperBound == Int32(y) {
                        ringRowsWritten[ringRowsWritten.count - 1] = last.lowerBound..<(Int32(y) + 1)
                    } else {
                        ringRowsWritten.append(Int32(y)..<(Int32(y) + 1))
                    }
                }
                (ring + first).update(from: lines, count: height - first)
                ring.update(from: lines + (height - first), count: first)
            }
        }
        ringPixelsWritten = written
        swap(&shown, &next)
        return top <= bottom ? (top - ahead, bottom - ahead) : nil
    }

    /// The ring row for the window's top that leaves the fewest pixels to write: the current
    /// one, or one where a line of the frame's first few images already is (a guess at how
    /// far the list moved, checked against every row). A cost is counted only as far as it
    /// decides (`cost(_:first:below:)`): a list that moved differs from the current row on
    /// nearly every line, and counting all of them was a walk of every line a frame.
    /// `clean`: that row costs no pixel.
    private func bestFirst(_ held: [Line]) -> (first: Int32, clean: Bool) {
        let height = next.count, current = Int(ringFirst)
        guard cost(held, first: current, below: 1) > 0 else { return (ringFirst, true) }
        // The current row's cost is counted once a guess needs it (nil until then; above 0).
        var best: (first: Int, cost: Int?) = (current, nil)
        var tried: (UInt32, UInt32, UInt32) = (0, 0, 0)
        var guesses = 0, y = 0
        while y < height && guesses < 3 && best.cost != 0 {
            let line = next[y]
            y += 1
            guard line.image != 0, line.image != tried.0, line.image != tried.1, line.image != tried.2 else { continue }
            (tried.0, tried.1, tried.2) = (line.image, tried.0, tried.1)
            guesses += 1
            guard let slot = Self.nearestRow(in: held, showing: line, around: (current + y - 1) % height) else { continue }
            let first = ((slot - (y - 1)) % height + height) % height
            guard first != best.first else { continue }
            if let known = best.cost {
                let cost = cost(held, first: first, below: known)
                if cost < known { best = (first, cost) }
            } else {
                let cost = cost(held, first: first)
                // The current row keeps its place unless it costs more than the guess.
                let stay = self.cost(held, first: current, below: cost + 1)
                best = cost < stay ? (first, cost) : (current, stay)
            }
        }
        return (Int32(best.first), best.cost == 0)
    }

    /// The ring row nearest `around` (either way round the ring) that shows `line`'s image
    /// line, nil when none does: a list that moved a few rows shows it a few rows from where
    /// it was, and a search from the ring's first row walked half the ring to find it.
    private static func nearestRow(in held: [Line], showing line: Line, around: Int) -> Int? {
        held.withUnsafeBufferPointer { held in
            let n = held.count
            func shows(_ i: Int) -> Bool { held[i].image == line.image && held[i].imageLine == line.imageLine }
            guard n > 0 else { return nil }
            var down = around, up = around
            for _ in 0...(n / 2) {
                if shows(down) { return down }
                if shows(up) { return up }
                down = down + 1 == n ? 0 : down + 1
                up = up == 0 ? n - 1 : up - 1
            }
            return nil
        }
    }

    /// Pixels `writeRing` would write with the window's top at ring row `first`, counted
    /// until they reach `bound` (then at least `bound`; exact below it).
    private func cost(_ held: [Line], first: Int, below bound: Int = .max) -> Int {
        var total = 0
        held.withUnsafeBufferPointer { held in
            next.withUnsafeBufferPointer { next in
                guard let ring = held.baseAddress, let lines = next.baseAddress else { return }
                // Two stretches, the frame's lines from ring row `first` to the ring's end,
                // then the rest from its start: no wrap to ask of every line.
                let n = next.count - first
                guard !Self.count(lines, against: ring + first, n, width: width, below: bound, into: &total) else { return }
                _ = Self.count(lines + n, against: ring, first, width: width, below: bound, into: &total)
            }
        }
        return total
    }

    /// Adds to `total` the pixels to write so that `count` ring rows show `lines`, until it
    /// reaches `bound`; returns whether it did.
    private static func count(_ lines: UnsafePointer<Line>, against ring: UnsafePointer<Line>, _ count: Int, width: Int32,
                              below bound: Int, into total: inout Int) -> Bool {
        for i in 0..<count where !PixelLine.same(ring + i, lines + i) {
            let (from, to) = PixelLine.change(from: ring[i], to: lines[i], width: width)
            if from < to {
                total += Int(to - from)
                if total >= bound { return true }
            }
        }
        return false
    }

    /// The ring's rows as they stand, read only (0 before the first `writeRing`; a ring
    /// written with pixels has no images here, and is not read so): a display
    /// that keeps the ring's rows in its own buffers brings them up to date from these
    /// (`RingBuffers`), handed them in the frame's value (`RingFrame`).
    var ringRows: RingRows { RingRows(lines: ring, images: ringImages) }

    /// Writes the shown lines again inside `rect` (under overlays that changed).
    func rewrite(_ rect: SDL_Rect, into canvas: WindowCanvas) {
        let low = max(0, Int(rect.y)), high = min(shown.count - 2 * Int(ahead), Int(rect.y + rect.h))
        guard low < high else { return }
        for y in low..<high { write(shown[y + Int(ahead)], row: Int32(y), from: rect.x, to: rect.x + rect.w, into: canvas) }
    }

    /// Pixels `from..<to` of one line of this frame (`WindowCanvas.write`).
    private func write(_ line: Line, row: Int32, from: Int32, to: Int32, into canvas: WindowCanvas,
                       flash: WindowCanvas.Tint? = nil) {
        canvas.write(line, row: row, from: from, to: to, images: images, flash: flash)
    }
}
