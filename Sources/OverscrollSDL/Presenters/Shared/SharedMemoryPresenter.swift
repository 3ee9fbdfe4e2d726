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
/// With the list in a ring (`WaylandListRing`, the counterpart of X11's, kept as lines), a
/// buffer holds the ring from some row on and a little past its end again, and shows the
/// window's rows from the row the window's top shows (`RingBuffers`): a scroll makes a new
/// wl_buffer over the same memory at another offset (a request, no pixels) and writes only
/// the ring rows that changed, as on X11. Only the overlays come from `surface`. Copying the whole window into
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
    /// For each buffer, the window's rectangles changed since it was last shown: a buffer
    /// brought up to date gets only those.
    private var stale: [[SDL_Rect]]
    private var changed: [SDL_Rect] = []
    /// The compositor answered a request with an error or hung up.
    private(set) var broken = false
    /// The list's ring, where the painter keeps the list in one, and what its buffers
    /// hold (`RingBuffers`). Its frames say which ring row the window's top shows
    /// (`first`), which window rows' ring rows they wrote (`written`, this frame's), and
    /// what each ring row shows (`lines`, the painter's).
    private weak var ring: WaylandListRing?
    private var ringBuffers: RingBuffers?
    private var first: Int32 = 0
    private var written: [Range<Int32>] = []
    private weak var lines: (any RingLines)?
    private var ringFrameNow = false

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
        stale = Array(repeating: [], count: Int(ovs_wl_shm_most))
        for i in stale.indices { stale[i].reserveCapacity(16) }
        changed.reserveCapacity(16)
        written.reserveCapacity(16)
        damageCut = Self.cutSDLDamage(wlSurface)
    }

    /// SDL's own whole-surface damage at its frame callbacks would ride in our commits
    /// (CWayland/sdldamage.c): cut where SDL's Wayland driver is one it was written for
    /// (SDL 2's own, SDL 3 up to 3.2) and its listener calls reach the program's
    /// wl_proxy_add_listener. Whether it is.
    let damageCut: SDLTrick.State

    private static func cutSDLDamage(_ wlSurface: UnsafeMutableRawPointer) -> SDLTrick.State {
        let sdl = SDLBuild.current()
        guard sdl.frameCallbacksDamage else {
            return .notApplied("written for SDL 2 and SDL 3 up to 3.2, whose frame callbacks it knows; \(sdl.description)'s are not assumed the same")
        }
        // SDL registered its registry's, seat's and surface's listeners by now: none seen
        // means its calls bind elsewhere (libwayland-client opened privately), and so
        // would its frame callbacks'.
        let seen = ovs_wl_listeners_passed_on()
        guard seen > 0 else { return .failed("\(sdl.description)'s listener calls do not reach the program's wl_proxy_add_listener") }
        guard ovs_wl_quiet_sdl_damage(wlSurface) != 0 else {
            return .failed("the window's wl_surface has no user data of SDL's to know its frame callbacks by")
        }
        return .inEffect("\(sdl.description)'s \(seen) listener registrations so far passed through the program's wl_proxy_add_listener; the window's frame callbacks get one that does nothing")
    }

    deinit {
        _ = ovs_wl_quiet_sdl_damage(nil)
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
        ringBuffers = RingBuffers(width: ring.width, height: ring.height, buffers: Int(ovs_wl_shm_most))
        written.removeAll(keepingCapacity: true)
    }

    /// A ring frame: the window's top shows ring row `first`; the ring rows of window
    /// rows `written` were written; `lines` says what each ring row shows.
    func ringFrame(first: Int32, written: [Range<Int32>], lines: any RingLines) {
        self.lines = lines
        self.first = first
        self.written.removeAll(keepingCapacity: true)
        self.written.append(contentsOf: written)
        ringFrameNow = true
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
        // Each pixel once (`RingBuffers.add`): a scroll damages the whole window frame
        // after frame, and copying it twice cost twice.
        for i in stale.indices {
            for rect in changed { RingBuffers.add(rect, to: &stale[i]) }
        }
        guard let got = acquire(width: width, height: height, rows: height, offset: 0, most: Int32(ovs_wl_shm_most)) else { return }
        let (pixels, stride, buffer, fresh) = got
        if fresh { stale[buffer] = [window] }
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        for rect in stale[buffer] {
            for row in rect.y..<(rect.y + rect.h) {
                (pixels + Int(row) * stride + Int(rect.x))
                    .update(from: source + Int(row) * Int(width) + Int(rect.x), count: Int(rect.w))
            }
        }
        stale[buffer].removeAll(keepingCapacity: true)
        for rect in changed { ovs_wl_shm_damage(shm, rect.x, rect.y, rect.w, rect.h) }
        if ovs_wl_shm_commit(shm) < 0 { lose() }
    }

    /// A frame with the list in `ring`, shown through buffers that hold the ring from
    /// some row on (`RingBuffers`): the buffer shows the window from the row the frame's
    /// `first` falls on, and gets only what it lacks.
    private func presentRing(_ ring: WaylandListRing) {
        defer {
            written.removeAll(keepingCapacity: true)
            ringFrameNow = false
        }
        if ringBuffers?.width != ring.width || ringBuffers?.height != ring.height {
            ringBuffers = RingBuffers(width: ring.width, height: ring.height, buffers: Int(ovs_wl_shm_most))
        }
        guard var buffers = ringBuffers else { return }
        ringBuffers = nil       // uniquely referenced while it changes
        defer { ringBuffers = buffers }
        guard let offset = buffers.begin(first: first, written: written, changed: changed, ringFrame: ringFrameNow) else { return }
        // Two: the one the compositor shows and the next. A third, made when a release is
        // late, would cost more memory (a window and a half) than the wait.
        guard let got = acquire(width: ring.width, height: ring.height, rows: buffers.rows, offset: offset, most: 2) else { return }
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let buffer = WindowCanvas(pixels: got.pixels, stride: got.stride, width: ring.width, height: buffers.rows,
                                  format: surface.pointee.format)
        buffers.fill(got.index, fresh: got.fresh, buffer: buffer, offset: offset, first: first, written: written,
                     lines: lines, surface: source) { rect in
            ovs_wl_shm_damage(shm, rect.x, rect.y, rect.w, rect.h)
        }
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
}
