import CSDL

/// What each wl_shm buffer showing the list's ring lacks, and how a frame brings one up to
/// date (`WaylandSurface` does the Wayland side; this is memory in, memory out, so a test
/// can play it).
///
/// A buffer's memory holds the ring (`WaylandListRing`) from ring row `base` on, and its
/// first `extra` rows once more after the end, so the window — `height` rows from any row
/// up to `extra` — is one stretch of it: the window's top shows the ring row a frame says
/// (`first`) from the buffer's row `first - base` (mod `height`). What is drawn over the
/// list (the overlays) lies in the window surface; wherever the surface is current
/// (`current`: the overlays a ring frame drew, plus what later frames presented from it)
/// the buffer shows the surface, elsewhere the ring. A buffer brought up to date gets the
/// ring rows written since it was last shown (twice where it holds a row twice), the list
/// back where it showed the surface, then the surface where it is current.
struct RingBuffers {
    let width: Int32
    let height: Int32
    /// Rows held twice: how far the list may move from a buffer's base before every
    /// buffer is written again from a new one (half a window).
    let extra: Int32
    /// Rows of memory a buffer needs.
    var rows: Int32 { height + extra }

    private struct Lack {
        /// Ring rows written since the buffer was last brought up to date.
        var ringRows: [Range<Int32>] = []
        /// Where the buffer shows the surface's pixels (its memory's coordinates): the list
        /// goes back there first. Everywhere else a buffer shows only the list.
        var listBack: [SDL_Rect] = []
    }
    private var lacks: [Lack]
    private var base: Int32 = 0
    /// Where the window surface holds this frame's pixels (window coordinates), and where
    /// it did last frame.
    private var current: [SDL_Rect] = []
    private var before: [SDL_Rect] = []
    /// The ring row the window's top showed in the last frame shown; nil before one.
    private var shownFirst: Int32?

    init(width: Int32, height: Int32, buffers: Int) {
        self.width = width
        self.height = height
        extra = max(1, height / 2)
        lacks = Array(repeating: Lack(), count: buffers)
        for i in lacks.indices {
            lacks[i].ringRows.reserveCapacity(32)
            lacks[i].listBack.reserveCapacity(32)
        }
        current.reserveCapacity(16)
        before.reserveCapacity(16)
    }

    /// A frame: the window's top shows ring row `first`; the ring rows of window rows
    /// `written` were written (empty for a frame drawn without the ring); `surface` holds
    /// this frame's pixels at `changed` (window coordinates, inside the window), and
    /// `ringFrame` says whether this frame drew every overlay anew (then the surface is
    /// current only there). Returns the buffer row the window's top is to show from, or
    /// nil when nothing on screen changes.
    mutating func begin(first: Int32, written: [Range<Int32>], changed: [SDL_Rect], ringFrame: Bool) -> Int32? {
        let moved = shownFirst != first
        guard moved || !written.isEmpty || !changed.isEmpty else { return nil }
        for band in written {
            let top = Self.mod(first + band.lowerBound, height), count = Int32(band.count)
            for i in lacks.indices {
                Self.add(top..<min(height, top + count), to: &lacks[i].ringRows)
                if top + count > height { Self.add(0..<(top + count - height), to: &lacks[i].ringRows) }
            }
        }
        swap(&before, &current)
        current.removeAll(keepingCapacity: true)
        // A ring frame drew every overlay anew; any other kept last frame's as they were.
        if !ringFrame { current.append(contentsOf: before) }
        for rect in changed { Self.add(rect, to: &current, exact: true) }
        var offset = Self.mod(first - base, height)
        if offset > extra {
            // A new base, with all the room on the side the list is moving to: a fling
            // goes on the same way, and every new base costs every buffer whole.
            let step = shownFirst.map { Self.mod(first - $0 + height / 2, height) - height / 2 } ?? 0
            offset = step > 0 ? 0 : step < 0 ? extra : extra / 2
            base = Self.mod(first - offset, height)
            for i in lacks.indices {
                lacks[i].ringRows.removeAll(keepingCapacity: true)
                lacks[i].ringRows.append(0..<height)
                lacks[i].listBack.removeAll(keepingCapacity: true)
            }
        }
        return offset
    }

    /// Brings buffer `index` up to date for the frame `begin` returned `offset` for:
    /// `pixels` its memory (`rows` rows, `stride` pixels apart; `fresh`: undefined), `ring`
    /// the list's ring and `surface` the window surface (both `width` pixels a row).
    /// Calls `damage` with what differs from the frame shown before (window coordinates).
    /// Returns how many pixels it copied (tests).
    @discardableResult
    mutating func fill(_ index: Int, fresh: Bool, pixels: UnsafeMutablePointer<UInt32>, stride: Int, offset: Int32,
                       first: Int32, written: [Range<Int32>], ring: UnsafePointer<UInt32>,
                       surface: UnsafePointer<UInt32>, damage: (SDL_Rect) -> Void) -> Int {
        let w = Int(width), rows = self.rows, height = self.height, base = self.base
        var copied = 0
        if fresh {
            lacks[index].ringRows.removeAll(keepingCapacity: true)
            lacks[index].ringRows.append(0..<height)
            lacks[index].listBack.removeAll(keepingCapacity: true)
        }
        func list(ringRow: Int32, x: Int32, count: Int32, to row: Int32) {
            (pixels + Int(row) * stride + Int(x)).update(from: ring + Int(ringRow) * w + Int(x), count: Int(count))
            copied += Int(count)
        }
        for band in lacks[index].ringRows {
            for ringRow in band {
                let row = Self.mod(ringRow - base, height)
                list(ringRow: ringRow, x: 0, count: width, to: row)
                if row + height < rows { list(ringRow: ringRow, x: 0, count: width, to: row + height) }
            }
        }
        for rect in lacks[index].listBack {
            let top = max(0, rect.y), bottom = min(rows, rect.y + rect.h)
            guard top < bottom else { continue }
            for row in top..<bottom { list(ringRow: (base + row) % height, x: rect.x, count: rect.w, to: row) }
        }
        lacks[index].ringRows.removeAll(keepingCapacity: true)
        lacks[index].listBack.removeAll(keepingCapacity: true)
        for rect in current {
            for row in rect.y..<(rect.y + rect.h) {
                (pixels + Int(offset + row) * stride + Int(rect.x)).update(from: surface + Int(row) * w + Int(rect.x), count: Int(rect.w))
            }
            copied += Int(rect.w) * Int(rect.h)
            // The list goes back there before the buffer is shown again.
            Self.add(SDL_Rect(x: rect.x, y: rect.y + offset, w: rect.w, h: rect.h), to: &lacks[index].listBack)
        }
        if shownFirst != first {
            damage(SDL_Rect(x: 0, y: 0, w: width, h: height))
        } else {
            for band in written { damage(SDL_Rect(x: 0, y: band.lowerBound, w: width, h: Int32(band.count))) }
            for rect in current { damage(rect) }
            for rect in before { damage(rect) }
        }
        shownFirst = first
        return copied
    }

    /// Adds ring rows `band` to a list, merged with a band it meets; past a few frames'
    /// worth (two or three bands a frame), their span.
    private static func add(_ band: Range<Int32>, to list: inout [Range<Int32>]) {
        guard !band.isEmpty else { return }
        var merged = band
        list.removeAll { other in
            guard other.lowerBound <= merged.upperBound, merged.lowerBound <= other.upperBound else { return false }
            merged = min(merged.lowerBound, other.lowerBound)..<max(merged.upperBound, other.upperBound)
            return true
        }
        list.append(merged)
        guard list.count > 24 else { return }
        var low = merged.lowerBound, high = merged.upperBound
        for other in list { (low, high) = (min(low, other.lowerBound), max(high, other.upperBound)) }
        list.removeAll(keepingCapacity: true)
        list.append(low..<high)
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
