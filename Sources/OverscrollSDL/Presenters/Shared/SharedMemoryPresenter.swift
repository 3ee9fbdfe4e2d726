import CSDL
import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// The CPU drawing into plain memory, shown through buffers shared with whatever shows
/// them (`BufferChain`: Wayland's wl_shm, DRM's dumb buffers). SDL's software renderer
/// and the painter draw into a surface of ours (`surface`), as they draw into SDL's window
/// surface on X11; a present copies what changed into a buffer nobody is reading, damages
/// only that, and commits once, after the chain says the frame before is on screen.
///
/// With the list in a ring (`ChainListRing`, the counterpart of X11's, kept as lines), a
/// buffer holds the ring from some row on and a little past its end again, and shows the
/// window's rows from the row the window's top shows (`RingBuffers`): a scroll shows the
/// same memory from another offset (no pixels) and writes only the ring rows that
/// changed, as on X11. Only the overlays come from `surface`. Copying the whole window
/// into a buffer each scrolling frame was 40% of the process's CPU (perf, bench-wayland's
/// replay): the buffer last shown is cold in this core's cache.
///
/// A turned screen (`--rotate`), where the chain can show a buffer from any pixel on
/// (`BufferChain.showsFromAnyPixel`: DRM, and wl_shm, whose wl_buffer may start at any
/// pixel of its pool): the frame is drawn at the app's size in
/// `surface`, ring and all, and written into the buffers turned as it is copied
/// (`WindowCanvas`'s turn, `ScreenRotation.buffer`): at 90° and 270° the ring lies along the
/// panel's columns and a scroll moves the column the panel shows from. Drawn whole and
/// turned by SDL instead (`TurnedTarget`), a frame at 1280x800 took 343 ms in the VM,
/// against 0.55 ms unturned; on wl_shm under cage, 15.3 ms against 0.19. At 90° and 270°
/// an app's row is a memory column: its rows
/// gather 16 at a time in `strip` and each memory row gets a whole cache line of them
/// (`TurnStrip`), where a pixel at a time was a store on a cache line of its own. The ring
/// holds rows beyond the window's edges too (`ringAhead`), so a band at the window's edge
/// is written once, as it scrolls in, not again each frame the list moves a few rows; and
/// a turned buffer keeps more spare rows, so the whole window's text is written again
/// less often (`overscroll-bench rotation`; what each step cost: docs/performance.md).
///
/// It knows no window and no driver: it is given the most pixels it will hold, the chain,
/// and how to learn the size the screen has now (`currentSize`), which it follows.
final class SharedMemoryPresenter: Presenter {
    let renderer: OpaquePointer
    let described: PresenterDescription
    let turned: TurnedTarget
    var keepsPixels: Bool { true }
    /// Where the frame is drawn: as large as the screen in pixels, whose size it follows
    /// (`follow`) inside memory reserved for the largest it may be.
    let surface: UnsafeMutablePointer<SDL_Surface>
    let chain: any BufferChain
    private let currentSize: () -> (width: Int32, height: Int32)
    /// How the screen is turned, where this presenter turns it (`beginTurned`): `surface`
    /// is the app's size, the panel (`panel`) turned by it.
    private var rotation = ScreenRotation.none
    private var panel: (width: Int32, height: Int32) = (0, 0)
    private let memory: UnsafeMutableRawPointer
    private let capacity: Int
    /// What a ring's presence is said as (`makeListRing`'s note): "a wl_shm buffer".
    private let bufferName: String
    /// For each buffer, the screen's rectangles changed since it was last shown: a buffer
    /// brought up to date gets only those.
    private var stale: [[SDL_Rect]]
    private var changed: [SDL_Rect] = []
    /// The chain broke at a wait, an acquire or a commit.
    private var lost = false
    var loss: String? { lost || cannotShow != nil ? "connection closed" : nil }
    /// How much the list's ring asks of the buffers (`RingRoom`): less once the driver
    /// refused memory for them.
    private(set) var room = RingRoom()
    /// Lines for the journal since `takeNotes`: the ring asked for less.
    private var notes: [String] = []
    /// The driver refused even the least memory this asks for: nothing can be shown.
    private(set) var cannotShow: String?
    /// The driver had memory for one buffer only, at the ring's least (`refused`): that
    /// one is drawn while it is shown (`BufferChain.drawsWhereShown`), and may tear.
    private(set) var oneBuffer = false
    var scanoutSequence: Int { chain.scanoutSequence }
    func lastShown(waitingMs: Int32) -> Presentation? { chain.lastShown(waitingMs: waitingMs) }
    /// The list's ring, where the painter keeps the list in one, and what its buffers
    /// hold (`RingBuffers`). Its frames come in the present's value (`RingFrame`): which
    /// ring row the window's top shows, which lines this frame wrote, what each shows.
    private weak var ring: ChainListRing?
    private var ringBuffers: RingBuffers?
    /// Where a buffer turned 90° or 270° gathers its rows (`TurnStrip`), as wide as the
    /// app's frame once it is turned so: made at a size, not per frame.
    private let strip = TurnStrip()
    /// Pixels the list's ring frames have written into the buffers so far (tests): what a
    /// turned screen's bands cost against an unturned screen's rows.
    private(set) var ringPixelsWritten = 0

    /// Draws into memory for at most `capacity` bytes of 32-bit pixels and shows them
    /// through `chain`; nil, with `why`, where the memory or SDL's renderer cannot be had.
    /// `reason` says why it was chosen, `bufferName` what a buffer is called ("a wl_shm
    /// buffer"), `name` what it presents through ("wl_shm buffers"), `frameDamageCut` the
    /// trick the chain plays on SDL, if any.
    init?(chain: any BufferChain, capacity: Int, currentSize: @escaping () -> (width: Int32, height: Int32),
          name: String = "buffers in shared memory", reason: String, bufferName: String, frameDamageCut: SDLTrick.State? = nil, why: inout String) {
        let (w, h) = currentSize()
        // Pages never written are never resident: the reserve costs nothing until used.
        let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED,
              let made = SDL_CreateRGBSurfaceWithFormatFrom(mapped, max(1, w), max(1, h), 32, max(1, w) * 4,
                                                            SDL_PIXELFORMAT_RGB888.rawValue) else {
            if let mapped, mapped != MAP_FAILED { munmap(mapped, capacity) }
            why = "no memory for the window's pixels"
            return nil
        }
        guard let renderer = SDL_CreateSoftwareRenderer(made) else {
            SDL_FreeSurface(made)
            munmap(mapped, capacity)
            why = "SDL's software renderer refused the surface"
            return nil
        }
        memory = mapped
        surface = made
        self.renderer = renderer
        turned = TurnedTarget(renderer: renderer)
        self.chain = chain
        self.capacity = capacity
        self.currentSize = currentSize
        described = PresenterDescription(name: name, path: .cpu, reason: reason, scanoutClock: chain.scanoutClock,
                                         frameDamageCut: frameDamageCut, plural: true)
        self.bufferName = bufferName
        stale = Array(repeating: [], count: chain.most)
        for i in stale.indices { stale[i].reserveCapacity(16) }
        changed.reserveCapacity(16)
    }

    deinit {
        turned.release()
        SDL_DestroyRenderer(renderer)
        SDL_FreeSurface(surface)
        munmap(memory, capacity)
    }

    func canvas() -> WindowCanvas? {
        follow()
        return WindowCanvas(surface: surface)
    }

    /// The panel's: the frame's size turned back where this presenter turns it.
    var sizeInPixels: (width: Int, height: Int) {
        follow()
        return (Int(panel.width), Int(panel.height))
    }

    /// A screen turned by `rotation`: turned as the buffers are written where the chain
    /// shows a buffer from any pixel on, or takes the ring pinned (`turnsPinned`) (false:
    /// drawn at the app's size, unturned, in `surface`), else drawn whole and turned by
    /// SDL (`TurnedTarget`).
    func beginTurned(_ rotation: ScreenRotation) -> Bool {
        guard chain.showsFromAnyPixel || chain.turnsPinned else { return turned.begin(rotation, screen: sizeInPixels) }
        if rotation != self.rotation {
            self.rotation = rotation
            follow()
            screenLost()
        }
        return false
    }

    /// Makes the surface as large as the screen in pixels (a compositor resizes a kiosk's
    /// window to its output); its pixels are then undefined and the caller draws them all
    /// (a resize repaints everything). Returns whether the size changed.
    @discardableResult
    func follow() -> Bool {
        var (w, h) = currentSize()
        w = max(1, w)
        h = max(1, h)
        // Memory is reserved for the screen; a window larger than that is shown cut.
        while Int(w) * Int(h) * 4 > capacity { (w, h) = (max(1, w / 2), max(1, h / 2)) }
        panel = (w, h)
        if rotation.crosswise { (w, h) = (h, w) }
        guard w != surface.pointee.w || h != surface.pointee.h else { return false }
        surface.pointee.w = w
        surface.pointee.h = h
        surface.pointee.pitch = w * 4
        SDL_SetClipRect(surface, nil)
        // The renderer's viewport is the surface's size when it is reset.
        SDL_RenderSetViewport(renderer, nil)
        return true
    }

    func makeListRing(note: inout String) -> (any ListRing)? {
        let made = ChainListRing(presenter: self, width: surface.pointee.w, height: surface.pointee.h)
        note = made == nil ? "" : pinned
            ? "; \(bufferName) is shown from its first row only: a scroll writes the pixels that changed where the screen shows them"
            : "; a scroll changes which row of the list's ring \(bufferName) starts from, not the pixels"
        return made
    }

    /// The chain shows a buffer from its first row only (qxl; a framebuffer that does not
    /// pan): the ring holds no row twice and none ahead, so each frame that moves the list
    /// is a new base at the buffer's top (`RingBuffers.begin`), and writes into each row only
    /// the pixels where its line and the ring's differ: the text that moved and the rows'
    /// edges, not the window (a list of rows of one colour, its text at their start, is
    /// mostly lines that show what they showed). Without the ring, each such frame wrote
    /// the whole window.
    /// A turned screen's ring along its columns needs a chain that shows from any pixel;
    /// one that shows from a row only (fbdev) has it pinned there (`turnsPinned`).
    private var pinned: Bool { !chain.showsFromAnyRow || (rotation.crosswise && !chain.showsFromAnyPixel) }

    /// The ring's rows beyond each of the window's edges and its rows held twice, for a
    /// ring `height` rows tall (`RingRoom`'s step; none of either where `pinned`).
    private func ringLayout(height: Int32) -> (ahead: Int32, extra: Int32?) {
        pinned ? (0, 0) : room.layout(height: height, bands: rotation.crosswise, ahead: writesAhead)
    }

    /// Rows of memory a buffer takes for a ring `height` rows tall.
    private func ringRows(height: Int32) -> Int32 {
        let (ahead, extra) = ringLayout(height: height)
        return height + 2 * ahead + RingBuffers.spareRows(height: height, extra: extra)
    }

    /// The screen no longer shows what the buffers were given (a console's VT came back
    /// after another VT's program drew): the next present brings a buffer up whole, even
    /// one whose frame changed nothing (the ring's lines are still right, so the painter
    /// writes none of them again).
    func screenLost() {
        ringBuffers = nil
        let whole = SDL_Rect(x: 0, y: 0, w: surface.pointee.w, h: surface.pointee.h)
        for i in stale.indices {
            stale[i].removeAll(keepingCapacity: true)
            stale[i].append(whole)
        }
    }

    /// The ring the painter draws the list into from now on (`ChainListRing`).
    func attach(_ ring: ChainListRing) {
        self.ring = ring
        ringBuffers = makeRingBuffers(ring)
    }

    /// The rows beyond each of the window's edges the list's ring holds (`ListRing.ahead`):
    /// turned 90° or 270°, a buffer takes 16 rows at a time (`TurnStrip`), and a band at
    /// the window's edge gets its rows beyond it from these, what they show once scrolled
    /// in. Two bands: a scroll of up to 16 rows a frame writes no band twice.
    var ringAhead: Int32 { ringLayout(height: surface.pointee.h).ahead }
    /// Whether a turned screen's ring holds rows ahead (`ringAhead`): a test compares.
    var writesAhead = true

    /// What the chain's buffers hold of `ring`. Turned 90° or 270°, the ring's rows are
    /// the memory's columns: as many as make whole bands of the strip (`TurnStrip`), so
    /// each band is a cache line of each memory row where the driver's pitch allows.
    /// Their rows ahead and spare rows are the ladder's (`room`).
    private func makeRingBuffers(_ ring: ChainListRing) -> RingBuffers {
        let (ahead, extra) = ringLayout(height: ring.height)
        return RingBuffers(width: ring.width, height: ring.height, buffers: chain.most, extra: extra, ahead: ahead)
    }

    /// Shows the frame: its damage (pixels) changed in `surface` since the last present
    /// (nil, all of it); with a ring, also what the ring's frame says (`RingFrame`).
    func present(_ frame: PresentedFrame) {
        SDL_RenderFlush(renderer)
        let rects = frame.damage
        guard !lost else { return }
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
        if let ring, ring.width == width, ring.height == height { return presentRing(ring, frame.ring) }
        guard !changed.isEmpty else { return }
        // Each pixel once (`RingBuffers.add`): a scroll damages the whole window frame
        // after frame, and copying it twice cost twice.
        for i in stale.indices {
            for rect in changed { RingBuffers.add(rect, to: &stale[i]) }
        }
        let shape = rotation.buffer(width: width, height: height, rows: height, offset: 0)
        guard let got = acquire(shape, most: oneBuffer ? 1 : Int32(chain.most)) else { return }
        if got.fresh { stale[got.index] = [window] }
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        strip.reserve(width: rotation.crosswise ? Int(width) : 0)
        let buffer = WindowCanvas(pixels: got.pixels, stride: got.stride, width: width, height: height,
                                  format: surface.pointee.format, turn: rotation, strip: strip)
        for rect in stale[got.index] {
            for row in rect.y..<(rect.y + rect.h) {
                buffer.copy(row: row, x: rect.x, from: source + Int(row) * Int(width) + Int(rect.x), count: rect.w)
            }
        }
        buffer.finish()
        stale[got.index].removeAll(keepingCapacity: true)
        for rect in changed { damage(rect, width: width, height: height) }
        commit(shape)
    }

    /// A frame with the list in `ring`, shown through buffers that hold the ring from
    /// some row on (`RingBuffers`): the buffer shows the window from the row the frame's
    /// `first` falls on, and gets only what it lacks. `frame`: the ring as the painter
    /// has it (nil before it drew one: then the buffers show the surface).
    private func presentRing(_ ring: ChainListRing, _ frame: RingFrame?) {
        let first = frame?.first ?? 0, written = frame?.written ?? []
        if ringBuffers?.width != ring.width || ringBuffers?.height != ring.height || ringBuffers?.ahead != ringAhead
            || ringBuffers?.rows != ringRows(height: ring.height) {
            ringBuffers = makeRingBuffers(ring)
        }
        guard var buffers = ringBuffers else { return }
        ringBuffers = nil       // uniquely referenced while it changes
        defer { ringBuffers = buffers }
        guard let offset = buffers.begin(first: first, written: written, changed: changed, ringFrame: frame?.drawn ?? false,
                                                 lines: frame?.lines) else { return }
        // Two: the one on screen and the next. A third, made when a release is late,
        // would cost more memory (a window and a half) than the wait.
        let shape = rotation.buffer(width: ring.width, height: ring.height, rows: buffers.rows, offset: offset + buffers.ahead)
        guard let got = acquire(shape, most: oneBuffer ? 1 : 2) else { return }
        let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        strip.reserve(width: rotation.crosswise ? Int(ring.width) : 0)
        let buffer = WindowCanvas(pixels: got.pixels, stride: got.stride, width: ring.width, height: buffers.rows,
                                  format: surface.pointee.format, turn: rotation, strip: strip)
        let (width, height) = (ring.width, ring.height)
        ringPixelsWritten += buffers.fill(got.index, fresh: got.fresh, buffer: buffer, offset: offset, first: first,
                                          written: written, lines: frame?.lines, surface: source) { rect in
            damage(rect, width: width, height: height)
        }
        commit(shape)
    }

    /// Once the frame before is on screen, a buffer nobody reads; nil when none came
    /// free in time (the frame is skipped: every buffer remembers what it lacks) or the
    /// chain broke.
    /// Damages `rect` of the app's window `width` × `height`, where it lies on the panel.
    private func damage(_ rect: SDL_Rect, width: Int32, height: Int32) {
        let r = rotation.onPanel(rect, width: width, height: height)
        chain.damage(x: r.x, y: r.y, width: r.w, height: r.h)
    }

    private func acquire(_ shape: BufferShape, most: Int32) -> ChainBuffer? {
        // Paced by the screen: draw the next frame when it has shown the last. A screen
        // that shows nothing (a hidden window) sends no event: then on after a few frames.
        guard chain.waitFrame(timeoutMs: 100) else {
            lost = true
            return nil
        }
        guard let got = chain.acquire(shape, most: most, timeoutMs: 100) else {
            if chain.broken {
                lost = true
            } else if let words = chain.takeMemoryRefusal() {
                refused(words, shape: shape)
            }
            return nil
        }
        return got
    }

    /// Shows the buffer acquired as `shape`; a chain that broke is the display lost.
    private func commit(_ shape: BufferShape) {
        guard !chain.commit() else { return }
        if let words = chain.takeMemoryRefusal() { refused(words, shape: shape) } else { lost = true }
    }

    /// The driver had no memory for buffers of `shape` (`words`, its own; the frame was not
    /// shown): the list's ring asks for less (`RingRoom`), said once a step (`takeNotes`),
    /// and the next frame is drawn whole at the new size. Where the least is asked
    /// already, one buffer, drawn while it is shown, where the chain allows (QEMU's VGA
    /// at 1920x1080: fbcon's 8.3 MB pinned beside the mode set's leaves no room for a
    /// second); then nothing can be shown (`cannotShow`).
    private func refused(_ words: String, shape: BufferShape) {
        let asked = RingRoom.describe(shape), bands = rotation.crosswise
        // A pinned ring asks for the screen's rows only: nothing less to ask.
        guard let ring, !pinned, let lower = room.lower(height: ring.height, bands: bands, ahead: writesAhead) else {
            if ring != nil, !oneBuffer, chain.drawsWhereShown {
                oneBuffer = true
                notes.append("\(words); one buffer of \(asked) from now on, drawn while it is shown: a frame may tear")
                return screenLost()
            }
            let buffers = oneBuffer ? "one buffer of \(asked), the least" : "\(asked) each the least"
            cannotShow = "the driver has no memory for the screen's buffers, \(buffers) asked for: \(words)"
            return
        }
        let before = room.describe(height: ring.height, bands: bands, ahead: writesAhead)
        room = lower
        let rows = room.rows(height: ring.height, bands: bands, ahead: writesAhead)
        let taken = RingRoom.describe(rotation.buffer(width: ring.width, height: ring.height, rows: rows, offset: 0))
        let now = room.describe(height: ring.height, bands: bands, ahead: writesAhead)
        notes.append("\(words); the list's ring asks for less: buffers of \(taken) (\(now)) instead of \(asked) (\(before))")
        screenLost()
    }

    /// Lines for the journal since the last call: after one, the frame is drawn whole
    /// again (the one refused showed nothing).
    func takeNotes() -> [String] {
        defer { notes.removeAll() }
        return notes
    }
}
