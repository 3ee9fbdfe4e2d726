import CSDL
import CWayland
#if canImport(Glibc)
import Glibc
#endif

/// The CPU path's window pixels under Wayland. SDL 2.26 has no window surface there
/// without OpenGL, so the software renderer and the painter draw into a surface of ours in
/// plain memory (`surface`), as they draw into SDL's window surface on X11; a present
/// copies what changed into a wl_shm buffer the compositor is not reading (`CWayland`),
/// damages only that, and commits once, after the compositor's frame callback for the
/// frame before.
///
/// With the list in a ring (`WaylandListRing`, the counterpart of X11's), a buffer holds
/// the ring from some row on and a little past its end again, and shows the window's rows
/// from the row the window's top shows: a scroll makes a new wl_buffer over the same
/// memory at another offset (a request, no pixels) and copies only the ring rows it
/// wrote, as on X11. Only the overlays come from `surface`. Copying the whole window into
/// a buffer each scrolling frame was 40% of the process's CPU (perf, bench-wayland's
/// replay): the buffer the compositor last read is cold in this core's cache.
/// (wp_viewporter's source rectangle would do the same, but cage 0.1.4 does not offer it,
/// and SDL takes the surface's one viewport for scaled fullscreen modes.)
final class WaylandSurface {
    /// Where the frame is drawn: as large as the window in pixels, whose size it follows
    /// (`follow`) inside memory reserved for the largest the screen allows.
    let surface: UnsafeMutablePointer<SDL_Surface>
    private let shm: OpaquePointer
    private let window: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let capacity: Int
    /// For each buffer, what it lacks of the frame on screen: a buffer brought up to date
    /// gets only that.
    private var missing: [Missing]
    private var changed: [SDL_Rect] = []
    /// The compositor answered a request with an error or hung up.
    private(set) var broken = false
    /// The list's ring, where the painter draws the list into one; its frames say which
    /// ring row the window's top shows (`first`) and which window rows' ring rows they
    /// wrote (`written`, this frame's).
    private weak var ring: WaylandListRing?
    private var first: Int32 = 0
    private var written: [Range<Int32>] = []
    /// The ring row each buffer's memory starts with, and the ring row the window's top
    /// showed in the last frame committed (nil: none since the ring was made).
    private var base: Int32 = 0
    private var shownFirst: Int32?
    /// What the last frame took from `surface` (window pixels): where the next frame
    /// shows the list again, the screen changes.
    private var previous: [SDL_Rect] = []

    /// What a buffer lacks: without a ring, rectangles of the window (from `surface`);
    /// with one, ring rows (from the ring), and the rectangles of its memory that hold
    /// `surface`'s pixels (overlays) instead of the list's.
    private struct Missing {
        var rects: [SDL_Rect] = []
        var ringRows: [Range<Int32>] = []
    }

    /// Buffers for `window`, a Wayland window; nil with the reason in `why` elsewhere, or
    /// where the compositor offers no shared memory SDL's pixels fit.
    init?(window: OpaquePointer, why: inout String) {
        var subsystem: Int32 = 0
        var connection: UnsafeMutableRawPointer?
        guard CSDL_NativeConnection(window, &subsystem, &connection) != 0, subsystem == CSDL_SYSWM_WAYLAND,
              let connection, let wlSurface = CSDL_WaylandSurface(window) else {
            why = "not a Wayland window"
            return nil
        }
        var reason = [CChar](repeating: 0, count: 160)
        guard let shm = ovs_wl_shm_create(connection, wlSurface, &reason, Int32(reason.count)) else {
            why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        // Room for the window at the screen's size in either orientation: the renderer
        // drawing here lives as long as the window, its textures with it, so the surface
        // is resized in place. Pages never written are never resident.
        var bounds = SDL_Rect()
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSizeInPixels(window, &w, &h)
        var side = max(Int(w), Int(h), 1)
        if SDL_GetDisplayBounds(max(0, SDL_GetWindowDisplayIndex(window)), &bounds) == 0 {
            side = max(side, Int(bounds.w), Int(bounds.h))
        }
        // Two pixel units per point at most (HiDPI), as the window's size in pixels allows.
        capacity = side * side * 4 * 4
        let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED,
              let made = SDL_CreateRGBSurfaceWithFormatFrom(mapped, max(1, w), max(1, h), 32, max(1, w) * 4,
                                                            SDL_PIXELFORMAT_RGB888.rawValue) else {
            if let mapped, mapped != MAP_FAILED { munmap(mapped, capacity) }
            ovs_wl_shm_destroy(shm)
            why = "no memory for the window's pixels"
            return nil
        }
        memory = mapped
        surface = made
        self.shm = shm
        self.window = window
        missing = Array(repeating: Missing(), count: Int(ovs_wl_shm_most))
        for i in missing.indices {
            missing[i].rects.reserveCapacity(16)
            missing[i].ringRows.reserveCapacity(32)
        }
        changed.reserveCapacity(16)
        previous.reserveCapacity(16)
        written.reserveCapacity(16)
    }

    deinit {
        ovs_wl_shm_destroy(shm)
        SDL_FreeSurface(surface)
        munmap(memory, capacity)
    }

    /// Makes the surface as large as the window in pixels (the compositor resizes a
    /// kiosk's window to its output); its pixels are then undefined and the caller draws
    /// them all (a resize repaints everything). `renderer` draws into the surface.
    /// Returns whether the size changed.
    @discardableResult
    func follow(_ renderer: OpaquePointer?) -> Bool {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSizeInPixels(window, &w, &h)
        w = max(1, w)
        h = max(1, h)
        // Memory is reserved for the screen; a window larger than that is shown cut.
        while Int(w) * Int(h) * 4 > capacity { (w, h) = (max(1, w / 2), max(1, h / 2)) }
        guard w != surface.pointee.w || h != surface.pointee.h else { return false }
        surface.pointee.w = w
        surface.pointee.h = h
        surface.pointee.pitch = w * 4
        SDL_SetClipRect(surface, nil)
        // The renderer's viewport is the surface's size when it is reset.
        if let renderer { SDL_RenderSetViewport(renderer, nil) }
        return true
    }

    /// The ring the painter draws the list into from now on (`WaylandListRing`).
    func attach(_ ring: WaylandListRing) {
        self.ring = ring
        shownFirst = nil
        written.removeAll(keepingCapacity: true)
    }

    /// A ring frame: the window's top shows ring row `first`; the ring rows of window
    /// rows `written` were written.
    func ringFrame(first: Int32, written: some Collection<Range<Int32>>) {
        self.first = first
        self.written.removeAll(keepingCapacity: true)
        self.written.append(contentsOf: written)
    }

    /// Shows the frame: `rects` (pixels) changed in `surface` since the last present;
    /// nil, all of it. With a ring, also what its frame said (`ringFrame`).
    func present(_ rects: [SDL_Rect]?) {
        guard !broken else { return }
        let width = surface.pointee.w, height = surface.pointee.h
        var window = SDL_Rect(x: 0, y: 0, w: width, h: height)
        changed.removeAll(keepingCapacity: true)
        if let rects {
            for var rect in rects {
                var shown = SDL_Rect()
                if SDL_IntersectRect(&rect, &window, &shown) == SDL_TRUE { changed.append(shown) }
            }
        } else {
            changed.append(window)
        }
        if let ring, ring.width == width, ring.height == height { return presentRing(ring) }
        guard !changed.isEmpty else { return }
        for i in missing.indices { Self.add(changed, to: &missing[i].rects, bounds: window) }
        guard let got = acquire(width: width, height: height, rows: height, offset: 0, most: Int32(ovs_wl_shm_most)) else { return }
        let (pixels, stride, buffer, fresh) = got
        if fresh { missing[buffer].rects = [window] }
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        for rect in missing[buffer].rects {
            for row in rect.y..<(rect.y + rect.h) {
                (pixels + Int(row) * stride + Int(rect.x))
                    .update(from: source + Int(row) * Int(width) + Int(rect.x), count: Int(rect.w))
            }
        }
        missing[buffer].rects.removeAll(keepingCapacity: true)
        for rect in changed { ovs_wl_shm_damage(shm, rect.x, rect.y, rect.w, rect.h) }
        if ovs_wl_shm_commit(shm) < 0 { lose() }
    }

    /// A frame with the list in `ring`: the buffer shows the window from its row
    /// `first - base` on (mod the ring's height); it gets the ring rows it lacks (twice
    /// where its memory holds a row twice), the list back where its overlays were, and
    /// this frame's rectangles from `surface`.
    private func presentRing(_ ring: WaylandListRing) {
        let width = ring.width, height = ring.height
        let moved = shownFirst != first
        guard moved || !changed.isEmpty || !written.isEmpty else { return }
        defer { written.removeAll(keepingCapacity: true) }
        // How far the list may move before a buffer's memory is written again from
        // another row: half a window, either way.
        let extra = height / 2
        let rows = height + extra
        for band in written {
            let top = (first + band.lowerBound) % height, count = Int32(band.count)
            let end = min(height, top + count)
            for i in missing.indices {
                Self.add(top..<end, to: &missing[i].ringRows)
                if top + count > height { Self.add(0..<(top + count - height), to: &missing[i].ringRows) }
            }
        }
        var offset = Self.mod(first - base, height)
        if offset > extra {
            base = Self.mod(first - extra / 2, height)
            offset = Self.mod(first - base, height)
            for i in missing.indices { missing[i] = Missing(rects: [], ringRows: [0..<height]) }
        }
        // Two: the one the compositor shows and the next. A third, made when a release is
        // late, would cost more memory than the wait.
        guard let got = acquire(width: width, height: height, rows: rows, offset: offset, most: 2) else { return }
        let (pixels, stride, buffer, fresh) = got
        if fresh { missing[buffer] = Missing(rects: [], ringRows: [0..<height]) }
        let list = ring.pixels, w = Int(width)
        func copy(ringRow: Int32, x: Int32, count: Int32, to row: Int32) {
            (pixels + Int(row) * stride + Int(x)).update(from: list + Int(ringRow) * w + Int(x), count: Int(count))
        }
        // The list back where this buffer last showed overlays.
        for rect in missing[buffer].rects {
            for row in rect.y..<(rect.y + rect.h) { copy(ringRow: (base + row) % height, x: rect.x, count: rect.w, to: row) }
        }
        for band in missing[buffer].ringRows {
            for ringRow in band {
                let row = Self.mod(ringRow - base, height)
                copy(ringRow: ringRow, x: 0, count: width, to: row)
                if row + height < rows { copy(ringRow: ringRow, x: 0, count: width, to: row + height) }
            }
        }
        missing[buffer].ringRows.removeAll(keepingCapacity: true)
        missing[buffer].rects.removeAll(keepingCapacity: true)
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        for rect in changed {
            for row in rect.y..<(rect.y + rect.h) {
                (pixels + Int(offset + row) * stride + Int(rect.x))
                    .update(from: source + Int(row) * w + Int(rect.x), count: Int(rect.w))
            }
            missing[buffer].rects.append(SDL_Rect(x: rect.x, y: rect.y + offset, w: rect.w, h: rect.h))
        }
        // What differs from the frame on screen: everything when the list moved; else the
        // rows written, this frame's overlays and where last frame's were.
        if moved {
            ovs_wl_shm_damage(shm, 0, 0, width, height)
        } else {
            for band in written { ovs_wl_shm_damage(shm, 0, band.lowerBound, width, Int32(band.count)) }
            for rect in changed { ovs_wl_shm_damage(shm, rect.x, rect.y, rect.w, rect.h) }
            for rect in previous { ovs_wl_shm_damage(shm, rect.x, rect.y, rect.w, rect.h) }
        }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: changed)
        shownFirst = first
        if ovs_wl_shm_commit(shm) < 0 { lose() }
    }

    /// After the compositor's frame callback for the last commit, a buffer it is not
    /// reading (`CWayland`'s acquire); nil when none came free in time (the frame is
    /// skipped: every buffer remembers what it lacks) or the connection broke.
    private func acquire(width: Int32, height: Int32, rows: Int32, offset: Int32, most: Int32)
        -> (pixels: UnsafeMutablePointer<UInt32>, stride: Int, index: Int, fresh: Bool)? {
        // Paced by the compositor: draw the next frame when it has shown the last. A
        // window it does not show gets no callbacks: then on after a few frames' time.
        if ovs_wl_shm_wait_frame(shm, 100) < 0 {
            lose()
            return nil
        }
        var stride: Int32 = 0, index: Int32 = 0, fresh: Int32 = 0
        guard let pixels = ovs_wl_shm_acquire(shm, width, height, rows, offset, most, 100, &stride, &index, &fresh) else {
            if ovs_wl_shm_broken(shm) != 0 { lose() }
            return nil
        }
        return (pixels, Int(stride), Int(index), fresh != 0)
    }

    /// Buffers in use and releases seen, for tests.
    var buffers: Int { Int(ovs_wl_shm_buffers(shm)) }
    var releases: Int { ovs_wl_shm_releases(shm) }

    private func lose() { broken = true }

    /// Adds `rects` to what a buffer missed, each pixel once: a rectangle inside one
    /// already there adds nothing, one that covers others replaces them (a scroll damages
    /// the whole window frame after frame, and copying it twice cost twice). Past a
    /// handful, their bounding box: one copy of a few more pixels costs less than many.
    private static func add(_ rects: [SDL_Rect], to list: inout [SDL_Rect], bounds: SDL_Rect) {
        for rect in rects {
            if list.contains(where: { contains($0, rect) }) { continue }
            list.removeAll { contains(rect, $0) }
            list.append(rect)
        }
        guard list.count > 8 else { return }
        var box = list[0]
        for var rect in list {
            var union = SDL_Rect()
            SDL_UnionRect(&box, &rect, &union)
            box = union
        }
        list.removeAll(keepingCapacity: true)
        list.append(box)
    }

    /// Adds ring rows `band` to what a buffer lacks, merged with a band it meets; past a
    /// few frames' worth (two or three bands a frame), their span.
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

    private static func mod(_ a: Int32, _ n: Int32) -> Int32 { (a % n + n) % n }

    private static func contains(_ outer: SDL_Rect, _ inner: SDL_Rect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h
    }
}
