import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The presenter Wayland's wl_shm buffers and the console's DRM dumb buffers share
/// (`SharedMemoryPresenter`), over buffers in memory (`MemoryChain`): frame after frame of
/// a pull, a refresh and flings both ways, the buffer shown — from the row it is shown
/// from, as a ring — equals the scene drawn whole; on a turned screen, the scene drawn
/// whole unturned and turned here, a pixel at a time.
extension SDLSuite { @Suite struct SharedMemoryPresenterTests {
    /// `BufferChain` in plain memory: `most` buffers, taken in turn; the one committed
    /// last is "on screen". A driver with `limit` bytes for buffers refuses one that
    /// would pass it (ENOMEM, `takeMemoryRefusal`), when made or (`refusesAtFlip`, as
    /// bochs-drm does, pinning a buffer in video memory to show it) when shown.
    final class MemoryChain: BufferChain {
        let most: Int
        var limit = Int.max
        var refusesAtFlip = false
        /// As DRM's dumb buffers: asked for one, the one on the screen is drawn again.
        var drawsWhereShown = false
        /// As qxl's dumb buffers: each shown from its first pixel, whatever the shape says.
        var showsFromAnyRow = true
        /// The presenter's journal lines, as the harness took them (`takeNotes`).
        var notes: [String] = []
        private var refusal: String?
        private(set) var buffers: [[UInt32]] = []
        private(set) var shape: BufferShape?
        private var origins: [(x: Int32, y: Int32)] = []
        private var next = 0
        private var acquired: Int?
        private(set) var shown: Int?
        var broken: Bool { false }

        init(most: Int) { self.most = most }

        func waitFrame(timeoutMs: Int32) -> Bool { true }

        var showsFromAnyPixel: Bool { true }

        func acquire(_ shape: BufferShape, most: Int32, timeoutMs: Int32) -> ChainBuffer? {
            // The memory's size, as a DRM driver's buffers: another, and all are made anew.
            if shape.columns != self.shape?.columns || shape.rows != self.shape?.rows || shape.width != self.shape?.width {
                buffers = []
                origins = []
                next = 0
                shown = nil
            }
            // Fewer buffers (one, drawn where it is shown): the others go, as dumb.c's.
            if Int(most) < buffers.count {
                if let shown, shown >= Int(most) { self.shown = nil }
                buffers.removeLast(buffers.count - Int(most))
                origins.removeLast(origins.count - Int(most))
                next = 0
            }
            self.shape = shape
            #expect(shape.x >= 0 && shape.y >= 0 && shape.x + shape.width <= shape.columns && shape.y + shape.height <= shape.rows)
            #expect(showsFromAnyRow || (shape.x == 0 && shape.y == 0), "\(shape)")
            let fresh = next >= buffers.count
            if fresh, !refusesAtFlip, (buffers.count + 1) * bytes > limit {
                refusal = "a buffer of \(shape.columns)x\(shape.rows): Cannot allocate memory"
                return nil
            }
            if fresh {
                buffers.append([UInt32](repeating: 0xDEAD_BEEF, count: Int(shape.columns) * Int(shape.rows)))
                origins.append((0, 0))
            }
            let index = next
            next = (next + 1) % max(1, min(Int(most), self.most))
            origins[index] = (shape.x, shape.y)
            acquired = index
            let pixels = buffers[index].withUnsafeMutableBufferPointer { $0.baseAddress! }
            return ChainBuffer(pixels: pixels, stride: Int(shape.columns), index: index, fresh: fresh)
        }

        func damage(x: Int32, y: Int32, width: Int32, height: Int32) {}

        func commit() -> Bool {
            if refusesAtFlip, buffers.count * bytes > limit {
                refusal = "a page flip of a buffer of \(shape!.columns)x\(shape!.rows): Cannot allocate memory"
                return false
            }
            shown = acquired
            return true
        }

        func takeMemoryRefusal() -> String? {
            defer { refusal = nil }
            return refusal
        }

        /// A buffer's bytes at the shape asked last.
        var bytes: Int { shape.map { Int($0.columns) * Int($0.rows) * 4 } ?? 0 }

        /// The screen, `width` × `height`: `body` is given the shown buffer's memory, the
        /// pixels from one row to the next and where the screen's first pixel lies. False
        /// when nothing is shown, or not at that size.
        func withScreen(width: Int, height: Int, _ body: (UnsafeBufferPointer<UInt32>, _ stride: Int, _ first: Int) -> Void) -> Bool {
            guard let shown, let shape, shape.width == width, shape.height == height else { return false }
            let columns = Int(shape.columns)
            let first = showsFromAnyRow ? Int(origins[shown].y) * columns + Int(origins[shown].x) : 0
            buffers[shown].withUnsafeBufferPointer { body($0, columns, first) }
            return true
        }
    }

    /// Where the pixel the panel shows at (`x`, `y`) lies in the app's frame `width` ×
    /// `height` turned by `rotation` clockwise (as `ScreenRotation.toLogical` reads a touch).
    static func unturned(x: Int, y: Int, width: Int, height: Int, _ rotation: ScreenRotation) -> (x: Int, y: Int) {
        switch rotation {
        case .none: (x, y)
        case .half: (width - 1 - x, height - 1 - y)
        case .quarter: (y, height - 1 - x)
        case .threeQuarters: (width - 1 - y, x)
        }
    }

    /// A driver that shows every buffer from its first pixel (qxl ignores the framebuffer's
    /// offset and the source rectangle; a framebuffer that cannot pan): the ring pinned to
    /// the buffer's top, every frame still the scene drawn whole, turned too (once, the
    /// ring's frames showed shifted by its row); and a frame that moves the list writes the
    /// pixels that changed, not the window (as it did without a ring): over the script's
    /// drags, flings and pulls, at most 3/5 of a window a frame unturned (0.50 measured:
    /// the text that moved and the rows' edges), 9/10 turned (0.79: a band of 16 rows
    /// is written across the union of its rows' changes).
    @Test(arguments: [ScreenRotation.none, .quarter, .threeQuarters], [(480, 800), (471, 789)])
    func aChainShowingFromTheFirstRowOnlyGetsAPinnedRingAndEveryFrameRight(rotation: ScreenRotation, app: (Int, Int)) throws {
        let chain = MemoryChain(most: 2)
        chain.showsFromAnyRow = false
        let played = try replay(rotation: rotation, scale: 1, app: (app.0, app.1), chain: chain)
        let window = app.0 * app.1
        #expect(played.moved > 100, "\(played.moved) frames moved the list")
        #expect(played.written * (rotation.crosswise ? 10 : 5) <= played.moved * window * (rotation.crosswise ? 9 : 3),
                "\(played.written) pixels written over \(played.moved) frames that moved the list, a window \(window)")
    }

    @Test(arguments: [ScreenRotation.none, .quarter, .half, .threeQuarters], [1.0, 2.0])
    func theBufferShownEqualsTheSceneDrawnWhole(rotation: ScreenRotation, scale: Double) throws {
        try replay(rotation: rotation, scale: scale)
    }

    /// An app whose size is no whole number of a turned buffer's bands (`TurnStrip`), in
    /// either direction.
    @Test(arguments: [ScreenRotation.quarter, .half, .threeQuarters])
    func theBufferShownEqualsTheSceneDrawnWholeAtAnOddSize(rotation: ScreenRotation) throws {
        try replay(rotation: rotation, scale: 1, app: (471, 789))
    }

    /// Turned 90° or 270°, a buffer takes the app's rows 16 at a time (a cache line of each
    /// memory row), and writes the rows about to scroll in with those on screen (the
    /// ring's rows ahead, `ListRing.ahead`): over the same scrolls, fewer pixels than
    /// a band of 16 rows again for each few rows scrolled, and no more than an unturned
    /// screen writes. The pixels shown are checked frame by frame as above, the rows
    /// written ahead included.
    @Test(arguments: [ScreenRotation.quarter, .threeQuarters])
    func aTurnedScreenWritesTheRowsAheadOnce(rotation: ScreenRotation) throws {
        let app = (width: 240, height: 400)
        let unturned = try replay(rotation: .none, scale: 1, app: app).written
        let ahead = try replay(rotation: rotation, scale: 1, app: app).written
        let each = try replay(rotation: rotation, scale: 1, app: app, writesAhead: false).written
        #expect(unturned > 0)
        #expect(Double(ahead) <= 0.9 * Double(each), "\(ahead) pixels written with the rows ahead, \(each) without")
        #expect(ahead <= unturned, "\(ahead) pixels written turned, \(unturned) unturned")
    }

    /// Replays `ListRingTests.script` at `app` points (`scale` pixels a point) on a panel
    /// turned by `rotation` through the presenter, each frame's panel against the scene
    /// drawn whole unturned and turned here. Returns the pixels the ring's frames wrote
    /// into the buffers, and how many of those frames moved the list.
    @discardableResult
    func replay(rotation: ScreenRotation, scale: Double, app: (width: Int, height: Int) = (480, 800),
                writesAhead: Bool = true, chain: MemoryChain = MemoryChain(most: 2)) throws -> (written: Int, moved: Int) {
        var presenter: SharedMemoryPresenter?
        let (width, height) = (Int(Double(app.width) * scale), Int(Double(app.height) * scale))
        let (panelWidth, panelHeight) = rotation.crosswise ? (height, width) : (width, height)
        let drawn = try Headless(width: rotation.crosswise ? app.height : app.width, height: rotation.crosswise ? app.width : app.height,
                                 scale: scale) { window in
            var why = ""
            presenter = SharedMemoryPresenter(chain: chain, capacity: width * height * 4,
                                              currentSize: { (Int32(panelWidth), Int32(panelHeight)) },
                                              reason: "a test", bufferName: "a buffer in memory", why: &why)
            presenter?.writesAhead = writesAhead
            return presenter
        }
        drawn.painter.rotation = rotation
        #expect(drawn.display.sizeInPixels == (panelWidth, panelHeight))
        let reference = try Headless(width: app.width, height: app.height, scale: scale)
        let whole = try #require(SDL_GetWindowSurface(reference.display.window))
        // For each of the panel's pixels, the one drawn whole it shows.
        let referenceStride = Int(whole.pointee.pitch) / 4
        var unturned = [Int](repeating: 0, count: panelWidth * panelHeight)
        for y in 0..<panelHeight {
            for x in 0..<panelWidth {
                let at = Self.unturned(x: x, y: y, width: width, height: height, rotation)
                unturned[y * panelWidth + x] = at.y * referenceStride + at.x
            }
        }
        let script = try GestureScript(parsing: ListRingTests.script)
        var c = OverscrollModel.Configuration(viewportWidth: Double(app.width), viewportHeight: Double(app.height))
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: script, fps: 60)
        var scene = Scene(), previous: Scene?
        var wrong: String?
        var frames = 0, ringFrames = 0, moved = 0, offset: Double?
        driver.play(&model, source: ScriptedRefreshes()) { played, model in
            // As the app's session does: the rows ahead a turned buffer writes.
            scene.rowMargin = drawn.painter.rowMargin
            scene.update(model: model)
            var painted = drawn.painter.draw(scene, since: previous)
            drawn.painter.present(painted)
            // As the live loop does: the driver refused memory and the presenter asked
            // for less; the frame refused showed nothing, and is drawn again whole.
            let notes = presenter?.takeNotes() ?? []
            if !notes.isEmpty {
                chain.notes += notes
                drawn.painter.invalidate()
                scene.rowMargin = drawn.painter.rowMargin
                scene.update(model: model)
                painted = drawn.painter.draw(scene, since: nil)
                drawn.painter.present(painted)
            }
            if painted.kind == .ring {
                ringFrames += 1
                if offset != model.scroll.offset { moved += 1 }
            }
            offset = model.scroll.offset
            reference.painter.draw(scene)
            SDL_RenderFlush(reference.display.renderer)
            let pixels = UnsafePointer(whole.pointee.pixels.assumingMemoryBound(to: UInt32.self))
            let found = chain.withScreen(width: panelWidth, height: panelHeight) { screen, stride, first in
                for y in 0..<panelHeight {
                    let line = first + y * stride, turned = y * panelWidth
                    for x in 0..<panelWidth where screen[line + x] & 0xFF_FFFF != pixels[unturned[turned + x]] & 0xFF_FFFF {
                        let at = Self.unturned(x: x, y: y, width: width, height: height, rotation)
                        wrong = "frame \(played.frame) at \(played.time) s (\(painted.kind)): panel pixel (\(x), \(y)) is "
                            + "\(String(screen[line + x] & 0xFF_FFFF, radix: 16)), drawn whole "
                            + "\(String(pixels[unturned[turned + x]] & 0xFF_FFFF, radix: 16)) at (\(at.x), \(at.y))"
                        return
                    }
                }
            }
            guard found else {
                wrong = "frame \(played.frame): nothing shown, or not \(panelWidth)x\(panelHeight) (\(String(describing: chain.shape)))"
                return false
            }
            guard wrong == nil else { return false }
            frames += 1
            previous = scene
            return true
        }
        #expect(wrong == nil, "\(wrong ?? "")")
        #expect(frames > 300, "\(frames) frames")
        // The list went through the ring, shown from other rows as it scrolled.
        #expect(ringFrames > 100, "\(ringFrames) frames from the ring")
        // Turned 90° or 270°, the ring held rows beyond the window's edges.
        // Pinned to a buffer's top, it holds none.
        #expect(!chain.showsFromAnyRow || drawn.painter.rowMargin > 0 || !rotation.crosswise || !writesAhead || presenter?.room.layout(height: Int32(app.height), bands: true, ahead: true).ahead == 0)
        return (presenter?.ringPixelsWritten ?? 0, moved)
    }
} }
