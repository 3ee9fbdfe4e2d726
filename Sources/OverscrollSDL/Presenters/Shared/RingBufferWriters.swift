import CSDL

/// How `RingBuffers.writeOnScreen` brings a buffer's rows on screen up to the ring's lines,
/// one writer for each way a buffer's memory takes its rows: each row alone (unturned),
/// up the memory (turned 180°), or in bands of 16 (turned 90° or 270°, `TurnStrip`).
/// Each is given `held` (what each buffer row holds, told what it holds now), the ring's
/// lines, and the buffer's shape; each returns the pixels it wrote.
extension RingBuffers {
    /// `writeOnScreen` for a buffer whose memory takes each row alone: each row on screen
    /// given the pixels where its line changed.
    static func writeRows(_ held: UnsafeMutableBufferPointer<PixelLine>, ring: UnsafeBufferPointer<PixelLine>,
                          images: [LineImage], buffer: WindowCanvas, onScreen: Range<Int32>,
                          _ shape: (width: Int32, rows: Int32, count: Int32, base: Int32)) -> Int {
        guard let lines = ring.baseAddress, let kept = held.baseAddress else { return 0 }
        // Two stretches, each walked to its next row that changed (`PixelLine.agreeing`:
        // most rows show what they showed), the write out of the loop (a held line's `slot`
        // is never read).
        let (top, last, shift, split, n) = stretches(onScreen: onScreen, shape)
        var copied = 0, row = top
        while row < last {
            let (end, shift) = row < split ? (split, shift) : (last, shift - n)
            row += PixelLine.agreeing(kept + row, lines + (row + shift), count: end - row)
            guard row < end else { continue }
            let line = ring[row + shift]
            copied += write(line, over: held[row], row: Int32(row), buffer: buffer, images: images, width: shape.width)
            held[row] = line
            row += 1
        }
        return copied
    }

    /// `writeRows` for a buffer turned by 180°, whose row y is memory row h − 1 − y: the rows
    /// walked from the last, so the memory is written upward as unturned. Walked from the
    /// first, each row's fill began a row below the last one's: rotate 180 spent 1.4–1.6x
    /// rotate 0's time a frame at 1920x1080 (39 % of it in these fills against 25 %) for the
    /// same instructions (docs/performance.md, "Turned screens timed").
    static func writeRowsUpward(_ held: UnsafeMutableBufferPointer<PixelLine>, ring: UnsafeBufferPointer<PixelLine>,
                                images: [LineImage], buffer: WindowCanvas, onScreen: Range<Int32>,
                                _ shape: (width: Int32, rows: Int32, count: Int32, base: Int32)) -> Int {
        guard let lines = ring.baseAddress, let kept = held.baseAddress else { return 0 }
        let (top, last, shift, split, n) = stretches(onScreen: onScreen, shape)
        var copied = 0, row = last - 1
        while row >= top {
            let at = row + (row < split ? shift : shift - n)
            if !PixelLine.same(kept + row, lines + at) {
                copied += write(ring[at], over: held[row], row: Int32(row), buffer: buffer, images: images, width: shape.width)
                held[row] = ring[at]
            }
            row -= 1
        }
        return copied
    }

    /// The buffer's rows on screen, `top..<last`, and where their lines lie in the ring:
    /// rows `top..<split` show ring rows `row + shift`, the rest `row + shift − n` (the
    /// ring's wrap), so a walk goes in two stretches with no wrap a row.
    @inline(__always)
    private static func stretches(onScreen: Range<Int32>, _ shape: (width: Int32, rows: Int32, count: Int32, base: Int32))
        -> (top: Int, last: Int, shift: Int, split: Int, n: Int) {
        let top = Int(onScreen.lowerBound), last = Int(min(shape.rows, onScreen.upperBound)), n = Int(shape.count)
        let shift = (Int(shape.base) + top) % n - top
        return (top, last, shift, min(last, n - shift), n)
    }

    /// Pixels of `line` into the buffer's row `row` where they differ from `old`'s
    /// (`PixelLine.unknown`: every pixel). Returns how many it wrote. Not inlined: the loop over every
    /// row that calls it for the few that changed keeps its values in registers.
    @inline(never)
    static func write(_ line: PixelLine, over old: PixelLine, row: Int32, buffer: WindowCanvas, images: [LineImage],
                      width: Int32) -> Int {
        let (from, to) = PixelLine.change(from: old, to: line, width: width)
        guard from < to else { return 0 }
        buffer.write(line, row: row, from: from, to: to, images: images)
        return Int(to - from)
    }

    /// `writeOnScreen` for a turned buffer whose memory takes rows in bands (`TurnStrip`):
    /// from the band of the first row on screen to that of the last.
    static func writeBands(_ held: UnsafeMutableBufferPointer<PixelLine>, ring: UnsafeBufferPointer<PixelLine>,
                           images: [LineImage], buffer: WindowCanvas, onScreen: Range<Int32>,
                           _ shape: (width: Int32, rows: Int32, count: Int32, base: Int32)) -> Int {
        let (width, rows, count, base) = shape
        guard let kept = held.baseAddress, let lines = ring.baseAddress else { return 0 }
        var copied = 0, row = buffer.rowsWrittenWith(onScreen.lowerBound).lowerBound
        while row < min(rows, onScreen.upperBound) {
            // Rows the buffer's memory takes together (each memory row a cache line of
            // them) are given the union of their changes, those that did not change
            // written again as they are: whole lines.
            let together = buffer.rowsWrittenWith(row)
            var from = width, to: Int32 = 0, same = true
            // The band's ring rows counted on, not divided out a row.
            var at = Int((base + together.lowerBound) % count)
            // Most bands show what they showed: asked in one stretch where their ring rows
            // do not wrap (`PixelLine.agreeing`), and left as they are.
            let size = together.count, lower = Int(together.lowerBound)
            if at + size <= Int(count), PixelLine.agreeing(kept + lower, lines + at, count: size) == size {
                row = together.upperBound
                continue
            }
            for row in together {
                defer { at = at + 1 == Int(count) ? 0 : at + 1 }
                if PixelLine.same(kept + Int(row), lines + at) { continue }
                same = false
                let change = PixelLine.change(from: held[Int(row)], to: ring[at], width: width)
                if change.0 < change.1 { (from, to) = (min(from, change.0), max(to, change.1)) }
            }
            // A band whose rows all show what they showed is left as it is (`slot` unread).
            guard !same else {
                row = together.upperBound
                continue
            }
            // Where none of the band's rows shows its image, each is its fill: those pixels
            // go to memory as the band's colours, a run a memory row (`fillBand`), and only
            // the images' span is gathered and turned.
            var left = to, right = from
            let pattern = buffer.bandPattern
            at = Int((base + together.lowerBound) % count)
            for row in together {
                let line = ring[at]
                pattern[Int(row - together.lowerBound)] = line.fill
                if line.slot > 0, line.left < line.right {
                    (left, right) = (min(left, Int32(line.left)), max(right, Int32(line.right)))
                }
                held[Int(row)] = line
                at = at + 1 == Int(count) ? 0 : at + 1
            }
            if from < to {
                let spanFrom = max(from, left), spanTo = min(to, right)
                if spanFrom < spanTo {
                    buffer.fillBand(rows: together, from: from, to: spanFrom)
                    for row in together {
                        buffer.write(ring[Int((base + row) % count)], row: row, from: spanFrom, to: spanTo, images: images)
                    }
                    buffer.fillBand(rows: together, from: spanTo, to: to)
                } else {
                    buffer.fillBand(rows: together, from: from, to: to)
                }
                copied += Int(to - from) * together.count
            }
            row = together.upperBound
        }
        return copied
    }
}
