import CSDL

/// What each buffer of a `BufferChain` showing the list's ring holds, and how a frame
/// brings one up to date (`SharedMemoryPresenter` does the chain's side; this is memory
/// in, memory out, so a test can play it).
///
/// A buffer's memory holds the ring (`ChainListRing`, kept as lines: `RingRows`) from
/// ring row `base` on, and its first `extra` rows once more after the end, so the ring's
/// lines — from any row up to `extra` — are one stretch of it: the ring's first line shows
/// the ring row a frame says (`first`) from the buffer's row `first - base` (mod the ring's
/// rows).
/// Each buffer remembers the line each of its rows holds, and a frame writes into a row
/// only the pixels where that line and the ring's differ: the rows the ring wrote since the
/// buffer was last shown, and on a new base (which moves the ring row each buffer row
/// holds) the text that moved, not the window. What is drawn over the list (the overlays)
/// lies in the window surface; wherever the surface is current (`current`: the overlays a
/// ring frame drew, plus what later frames presented from it) the buffer shows the
/// surface, elsewhere the ring: where it showed the surface, the list goes back first.
///
/// The ring may hold `ahead` rows beyond each of the window's edges (`ListRing.ahead`): its
/// lines are then the window's `height` and those, and line `ahead` + y is window row y.
/// A frame writes only the rows on screen, and those written with them (a turned buffer's
/// band of 16, `WindowCanvas.rowsWrittenWith`): a band at the window's edge gets its rows
/// beyond the edge from the rows ahead, what they will show once scrolled in, so a scroll
/// writes each band once, as it comes in, not again each frame it moves by a few rows.
struct RingBuffers {
    let width: Int32
    /// The window's rows.
    let height: Int32
    /// The ring's rows beyond each of the window's edges.
    let ahead: Int32
    /// The ring's rows: the window's and those ahead on both sides.
    var lineCount: Int32 { height + 2 * ahead }
    /// Rows held twice: how far the list may move from a buffer's base before a new one.
    /// Each is a row of memory in every buffer; a new base costs the text that moved.
    let extra: Int32
    /// Rows of memory a buffer needs.
    var rows: Int32 { lineCount + extra }

    /// For each buffer, the list line each of its rows holds (`PixelLine.unknown`: not known).
    private var held: [[PixelLine]]
    /// For each buffer, where it shows the surface's pixels (its memory's coordinates):
    /// the list goes back there first. Everywhere else a buffer shows only the list.
    private var listBack: [[SDL_Rect]]
    private var base: Int32 = 0
    /// Where the window surface holds this frame's pixels (window coordinates), and where
    /// it did last frame.
    private var current: [SDL_Rect] = []
    private var before: [SDL_Rect] = []
    /// The ring row the window's top showed in the last frame shown, and the buffer that
    /// showed it from which of its rows; nil before one.
    private var shownFirst: Int32?
    private var shown: (index: Int, offset: Int32)?

    /// Buffers for a window `width` × `height` whose ring holds `ahead` rows beyond each
    /// edge, holding `extra` rows twice (an eighth of the window by default).
    init(width: Int32, height: Int32, buffers: Int, extra: Int32? = nil, ahead: Int32 = 0) {
        self.width = width
        self.height = height
        self.ahead = max(0, ahead)
        self.extra = Self.spareRows(height: height, extra: extra)
        let rows = Int(height + 2 * self.ahead + self.extra)
        held = Array(repeating: Array(repeating: .unknown, count: rows), count: buffers)
        listBack = Array(repeating: [], count: buffers)
        for i in listBack.indices { listBack[i].reserveCapacity(32) }
        current.reserveCapacity(16)
        before.reserveCapacity(16)
    }

    /// The rows held twice (`extra`) by buffers for a window `height` rows tall asked to hold
    /// `extra` (nil: an eighth of the window): at least one, at most the window's; none
    /// where none is asked, for a buffer the screen shows from its first row only (each
    /// frame that moves the list is then a new base at the buffer's top, and writes the
    /// pixels that changed where the screen shows them). The one rule, which `RingRoom`
    /// sizes buffers by too.
    static func spareRows(height: Int32, extra: Int32?) -> Int32 {
        extra == 0 ? 0 : max(1, min(height, extra ?? height / 8))
    }

    /// A frame: the ring's first line (window row −`ahead`) is ring row `first`; the ring
    /// rows of lines `written` were written (empty for a frame drawn without the ring);
    /// `surface` holds this frame's pixels at `changed` (window coordinates, inside the
    /// window), and `ringFrame` says whether this frame drew every overlay anew (then the
    /// surface is current only there). Returns the buffer row the ring's first line is to
    /// show from (the window's top: `ahead` rows further), or nil when nothing on screen
    /// changes.
    mutating func begin(first: Int32, written: [Range<Int32>], changed: [SDL_Rect], ringFrame: Bool,
                        lines: RingRows? = nil) -> Int32? {
        let moved = shownFirst != first
        let window = ahead..<(ahead + height)
        guard moved || written.contains(where: { $0.overlaps(window) }) || !changed.isEmpty else { return nil }
        swap(&before, &current)
        current.removeAll(keepingCapacity: true)
        // A ring frame drew every overlay anew; any other kept last frame's as they were.
        if !ringFrame { current.append(contentsOf: before) }
        for rect in changed { Self.add(rect, to: &current, exact: true) }
        let count = lineCount
        var offset = Self.mod(first - base, count)
        if offset > extra {
            // A new base, with the room on the side the list is moving to (a fling goes on
            // the same way): the half of the spare rows on that side, or the middle half.
            let step = shownFirst.map { Self.mod(first - $0 + count / 2, count) - count / 2 } ?? 0
            let room = step > 0 ? 0...(extra / 2) : step < 0 ? (extra - extra / 2)...extra : (extra / 4)...(extra - extra / 4)
            let preferred = step > 0 ? 0 : step < 0 ? extra : extra / 2
            offset = cheapestOffset(first: first, in: room, preferred: preferred, lines: lines)
            base = Self.mod(first - offset, count)
        }
        return offset
    }

    /// Of the offsets in `room`, the one whose new base costs the fewest pixels: a new base
    /// moves the ring row each buffer row holds, and a row is written again where its new
    /// line differs from the one it holds. A list's colours repeat (rows striped two by
    /// two, 112 pixels at 56 a row): moved by a whole period, a row keeps its colour and
    /// only its text is written; by half of one, every row is written whole. The spare
    /// rows' size fell on one or the other by chance — a landscape window's new base wrote
    /// 15–30 % of it, a portrait one's 85–100 %. Estimated from the buffer shown last over
    /// a sample of the window's rows (every few rows, at most ~2,000 lines compared: the
    /// few microseconds of a frame that writes tens of thousands of pixels); the offset
    /// nearest `preferred` among equals, `preferred` without lines.
    private func cheapestOffset(first: Int32, in room: ClosedRange<Int32>, preferred: Int32, lines: RingRows?) -> Int32 {
        guard let lines, lines.count == lineCount, let shown, room.count > 1 else { return preferred }
        let width = self.width, height = self.height, ahead = self.ahead, count = lineCount
        // An odd step, so that no even period of the rows' colours hides from the sample.
        let samples = max(16, min(Int(height), 2048 / room.count))
        let step = Int32(max(1, Int(height) / samples)) | 1
        return held[shown.index].withUnsafeBufferPointer { held in
            lines.lines.withUnsafeBufferPointer { ring in
                var best = preferred, bestCost = Int.max
                // From `preferred` outwards, so that an equal cost keeps the nearer offset.
                // (Offsets in the order preferred, −1, +1, −2, +2, …: no array a frame.)
                let span = max(preferred - room.lowerBound, room.upperBound - preferred)
                for k in 0...(2 * span) {
                    let o = preferred + (k % 2 == 1 ? -(k + 1) / 2 : k / 2)
                    guard room.contains(o) else { continue }
                    var cost = 0, y: Int32 = 0
                    while y < height, cost < bestCost {
                        let (from, to) = PixelLine.change(from: held[Int(o + ahead + y)],
                                                          to: ring[Int((first + ahead + y) % count)], width: width)
                        if from < to { cost += Int(to - from) }
                        y += step
                    }
                    if cost < bestCost { (best, bestCost) = (o, cost) }
                }
                return best
            }
        }
    }

    /// Brings buffer `index` up to date for the frame `begin` returned `offset` for (its
    /// rows on screen, and those its memory takes with them):
    /// `buffer` its memory (`rows` rows; `fresh`: undefined), `lines` what the ring's rows
    /// show (nil before the ring's first frame, or for a picture drawn without it, as a
    /// rotated one is: then the surface holds every pixel shown) and `surface` the window
    /// surface (`width` pixels a row). Finishes `buffer` (`WindowCanvas.finish`), then
    /// calls `damage` with what differs from the frame shown before (window coordinates).
    /// Returns how many pixels it wrote (tests).
    @discardableResult
    mutating func fill(_ index: Int, fresh: Bool, buffer: WindowCanvas, offset: Int32, first: Int32, written: [Range<Int32>],
                       lines: RingRows?, surface: UnsafePointer<UInt32>, damage: (SDL_Rect) -> Void) -> Int {
        let width = self.width, rows = self.rows, count = lineCount, base = self.base
        // The buffer's rows on screen; the others wait until they are (a buffer row not
        // shown can only be shown after a frame that writes it).
        let onScreen = (offset + ahead)..<(offset + ahead + height)
        if fresh {
            held[index].withUnsafeMutableBufferPointer { held in for row in held.indices { held[row] = .unknown } }
            listBack[index].removeAll(keepingCapacity: true)
        }
        // Without the ring's lines there is no list to write: its rows stay as they are.
        var known = false, copied = 0, moved: SDL_Rect?
        if let lines, lines.count == count {
            known = true
            // A frame that moves the list changes only the pixels where the lines now shown
            // differ from those shown before: where the list is narrower than the window,
            // or its rows' colours meet themselves again, not all of it.
            moved = shownFirst == first ? nil : shown.map { listChange(from: $0, to: first, lines: lines) }
            let shape = (width: width, rows: rows, count: count, base: base)
            copied += held[index].withUnsafeMutableBufferPointer { held in
                Self.writeOnScreen(held, lines: lines, buffer: buffer, onScreen: onScreen, shape)
            }
            copied += writeListBack(index, lines: lines, buffer: buffer, onScreen: onScreen)
        }
        return fill(index, fresh: fresh, buffer: buffer, offset: offset, first: first, written: written, surface: surface,
                    copied: copied, moved: known ? moved : nil, damage: damage)
    }

    /// Writes the list back where buffer `index` showed the surface (`listBack`), but not
    /// over rows the surface's pixels are copied onto again this frame (`current`, copied
    /// after): the scroll bar, as tall as the window's height squared over the list's, moves
    /// a few rows a frame, and its rows were written twice over each frame. Returns the
    /// pixels written.
    private mutating func writeListBack(_ index: Int, lines: RingRows, buffer: WindowCanvas, onScreen: Range<Int32>) -> Int {
        let rows = self.rows, count = lineCount, base = self.base, shift = onScreen.lowerBound
        var copied = 0
        for rect in listBack[index] {
            let top = max(0, rect.y), bottom = min(rows, rect.y + rect.h)
            guard top < bottom else { continue }
            // The rows a rectangle of this frame's surface covers across the whole width.
            var copiedOver: Range<Int32> = 0..<0
            for c in current where c.x <= rect.x && rect.x + rect.w <= c.x + c.w && Int(c.h) > copiedOver.count {
                copiedOver = (c.y + shift)..<(c.y + c.h + shift)
            }
            for row in top..<bottom where !copiedOver.contains(row) {
                lines.write((base + row) % count, from: rect.x, to: rect.x + rect.w, into: buffer, at: row)
                copied += Int(rect.w)
                // A row off screen kept its line (above): it now holds another here,
                // and is written whole once it shows.
                if !buffer.rowsWrittenWith(row).overlaps(onScreen) { held[index][Int(row)] = .unknown }
            }
        }
        listBack[index].removeAll(keepingCapacity: true)
        return copied
    }

    /// Brings the buffer's rows on screen up to `lines`, and those its memory takes with them
    /// (`WindowCanvas.rowsWrittenWith`): `held` says what each of its rows holds, and is
    /// told what they hold now (`shape`: the buffer's width and rows, the ring's rows, its
    /// base). Returns how many pixels it wrote. A function of its own, not the body of the
    /// closure that lends it `held`: fewer instructions a frame (docs/performance.md,
    /// "One frame value").
    private static func writeOnScreen(_ held: UnsafeMutableBufferPointer<PixelLine>, lines: RingRows, buffer: WindowCanvas,
                                      onScreen: Range<Int32>, _ shape: (width: Int32, rows: Int32, count: Int32, base: Int32)) -> Int {
        // The lines through a pointer, read once a fill: an array's subscript a row each cost
        // a bounds check and its retains.
        lines.lines.withUnsafeBufferPointer { ring in
            // Unturned, each row is written alone: asked once a fill, not a row (as before
            // #48's bands; docs/performance.md, "#49's refactor against 2c33bc5").
            buffer.writesRowsInBands
                ? writeBands(held, ring: ring, images: lines.images, buffer: buffer, onScreen: onScreen, shape)
                : buffer.rowsDescendInMemory
                ? writeRowsUpward(held, ring: ring, images: lines.images, buffer: buffer, onScreen: onScreen, shape)
                : writeRows(held, ring: ring, images: lines.images, buffer: buffer, onScreen: onScreen, shape)
        }
    }

    /// The bounding box of the list's pixels that differ between what buffer `shown` showed
    /// (the list where it holds known lines) and the ring from row `first` on (window
    /// coordinates; empty when none). The first row that differs and the last, then the rows
    /// between only until the box is as wide as the window: a frame that moves the list
    /// differs on most rows, and walking all of them was a walk of every row a frame.
    private func listChange(from shown: (index: Int, offset: Int32), to first: Int32, lines: RingRows) -> SDL_Rect {
        let width = self.width, height = self.height, ahead = self.ahead, count = lineCount
        var left = width, right: Int32 = 0, top: Int32 = 0, bottom = height
        held[shown.index].withUnsafeBufferPointer { held in
            lines.lines.withUnsafeBufferPointer { ring in
                // Whether window row y differs; its pixels that do widen the box.
                func widen(_ y: Int32) -> Bool {
                    let new = ring[Int((first + ahead + y) % count)]
                    let (from, to) = PixelLine.change(from: held[Int(shown.offset + ahead + y)], to: new, width: width)
                    guard from < to else { return false }
                    (left, right) = (min(left, from), max(right, to))
                    return true
                }
                while top < height, !widen(top) { top += 1 }
                while bottom > top + 1, !widen(bottom - 1) { bottom -= 1 }
                var y = top + 1
                while y < bottom - 1, left > 0 || right < width {
                    _ = widen(y)
                    y += 1
                }
            }
        }
        return left < right ? SDL_Rect(x: left, y: top, w: right - left, h: bottom - top) : SDL_Rect()
    }

    /// The surface where it is current, and the damage: what every frame brings a buffer
    /// after its list. `moved`: where the list's pixels changed if it moved (nil: unknown).
    private mutating func fill(_ index: Int, fresh: Bool, buffer: WindowCanvas, offset: Int32, first: Int32,
                               written: [Range<Int32>], surface: UnsafePointer<UInt32>, copied: Int, moved: SDL_Rect?,
                               damage: (SDL_Rect) -> Void) -> Int {
        let w = Int(width), width = self.width, height = self.height, top = offset + ahead
        var copied = copied
        for rect in current {
            buffer.copy(rows: (top + rect.y)..<(top + rect.y + rect.h), x: rect.x, from: surface + Int(rect.y) * w + Int(rect.x),
                        pitch: w, count: rect.w)
            copied += Int(rect.w) * Int(rect.h)
            // The list goes back there before the buffer is shown again.
            Self.add(SDL_Rect(x: rect.x, y: rect.y + top, w: rect.w, h: rect.h), to: &listBack[index])
        }
        // Every pixel is in the memory before it is damaged (a turned buffer's last rows
        // are still in its strip).
        buffer.finish()
        if shownFirst != first, moved == nil {
            damage(SDL_Rect(x: 0, y: 0, w: width, h: height))
        } else {
            if let moved, moved.w > 0 { damage(moved) }
            for band in written where moved == nil {
                // Lines to window rows, cut to the window: the rows ahead are not shown.
                let from = max(0, band.lowerBound - ahead), to = min(height, band.upperBound - ahead)
                if from < to { damage(SDL_Rect(x: 0, y: from, w: width, h: to - from)) }
            }
            for rect in current { damage(rect) }
            for rect in before { damage(rect) }
        }
        shownFirst = first
        shown = (index, offset)
        return copied
    }

    /// Adds `rect` to a list, each pixel once where one holds the other; past a handful,
    /// their bounding box (one copy of a few more pixels costs less than many), unless
    /// `exact`: where the surface is current must never grow over where it is stale.
    static func add(_ rect: SDL_Rect, to list: inout [SDL_Rect], exact: Bool = false) {
        guard rect.w > 0, rect.h > 0 else { return }
        if list.contains(where: { contains($0, rect) }) { return }
        list.removeAll { contains(rect, $0) }
        list.append(rect)
        guard list.count > 8, !exact else { return }
        var box = list[0]
        for var other in list {
            var union = SDL_Rect()
            SDL_UnionRect(&box, &other, &union)
            box = union
        }
        list.removeAll(keepingCapacity: true)
        list.append(box)
    }

    private static func contains(_ outer: SDL_Rect, _ inner: SDL_Rect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h
    }

    private static func mod(_ a: Int32, _ n: Int32) -> Int32 { (a % n + n) % n }
}
