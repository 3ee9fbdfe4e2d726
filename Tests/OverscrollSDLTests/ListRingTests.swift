import CSDL
import Foundation
import OverscrollKit
import RowSources
import Testing
@testable import OverscrollSDL

/// On X11 the list is drawn into a ring of pixel rows in shared memory, and a scroll changes
/// which ring row the window's top shows instead of rewriting the rows (`ListRing`). Here the
/// X server is simulated: `Screen` takes the ring's rows as the painter shows them, then the
/// overlays' rectangles from the window surface, as the server would. Frame by frame through
/// drags, flings, a tap, pulls that refresh and fail, the flash, the frame-time graph and the
/// bottom edge, that screen must equal the same scene drawn whole by a painter without a ring.
extension SDLSuite { @Suite struct ListRingTests {
    /// The ring, in memory of its own, and the window as the display server has it.
    final class Screen: ListRing {
        let width: Int, height: Int
        /// The ring's pixels, on X11; on Wayland the ring is kept as lines only and the
        /// buffers' rows are written from them.
        private let pixelsCanvas: WindowCanvas
        var canvas: WindowCanvas? { wayland == nil ? pixelsCanvas : nil }
        var bounds: SDL_Rect { pixelsCanvas.bounds }
        private let ring: UnsafeMutablePointer<UInt32>
        private let format: UnsafeMutablePointer<SDL_PixelFormat>
        /// What the window shows, in the surface's pixel format.
        var pixels: [UInt32]
        /// Window rows taken from the ring since the counter was last read.
        var rowsShown = 0
        /// When set, a show takes its rows one ring row off: a ring that lost track of its
        /// first row (the test's own check that a wrong screen is seen).
        var misplace = false
        /// Wayland's way (`RingBuffers`): the screen is the buffer last filled, shown from
        /// the row its frame says; two buffers alternate as the compositor releases them.
        /// Nil: the X server's way (rows copied out of the ring).
        var wayland: Wayland?
        struct Wayland {
            var buffers: RingBuffers
            var memory: [UnsafeMutablePointer<UInt32>]
            var filled: [Bool]
            var next = 0
            var first: Int32 = 0
            var written: [Range<Int32>] = []
            var lines: RingRows?
            var ringFrame = false
            var shownFirst: Int32?
            /// Pixels copied into buffers by the frames that moved the list by less than an
            /// eighth of the window, one entry each (a long jump's frames, Home and End gliding
            /// there in under half a second, move further and copy as much as they move).
            var copiedWhenMoved: [Int] = []
            /// A pixel that changed on screen outside the frame's damage, if any.
            var undamaged: String?
        }

        init(width: Int, height: Int, pixelFormat: UInt32) {
            self.width = width
            self.height = height
            ring = .allocate(capacity: width * height)
            ring.initialize(repeating: 0xDEAD_BEEF, count: width * height)
            format = SDL_AllocFormat(pixelFormat)!
            pixelsCanvas = WindowCanvas(pixels: ring, stride: width, width: Int32(width), height: Int32(height), format: format)
            pixels = Array(repeating: 0xFF00_FF, count: width * height)
        }

        deinit {
            ring.deallocate()
            SDL_FreeFormat(format)
            for memory in wayland?.memory ?? [] { memory.deallocate() }
        }

        /// Whether nothing was written into the ring's pixels (a Wayland ring keeps none).
        var ringUntouched: Bool { (0..<(width * height)).allSatisfy { ring[$0] == 0xDEAD_BEEF } }

        func useWayland() {
            let buffers = RingBuffers(width: Int32(width), height: Int32(height), buffers: 2)
            let memory = (0..<2).map { _ in
                let m = UnsafeMutablePointer<UInt32>.allocate(capacity: width * Int(buffers.rows))
                m.initialize(repeating: 0x00AB_CDEF, count: width * Int(buffers.rows))   // undefined, as a new pool's
                return m
            }
            wayland = Wayland(buffers: buffers, memory: memory, filled: [false, false])
        }

        /// The ring's part of the frame's value (`RingFrame`), as a presenter takes it.
        func take(_ frame: RingFrame?) {
            guard let frame else { return }
            guard wayland != nil else { return frame.drawn ? show(frame.rows, first: frame.first) : () }
            wayland!.first = frame.first
            wayland!.written = frame.written
            wayland!.lines = frame.lines
            wayland!.ringFrame = frame.drawn
        }

        func show(_ rows: Range<Int32>, first: Int32) {
            #expect(rows.lowerBound >= 0 && Int(rows.upperBound) <= height, "shows rows \(rows)")
            rowsShown += rows.count
            for y in rows {
                let from = (Int(first + y) + (misplace ? 1 : 0)) % height
                pixels.withUnsafeMutableBufferPointer { screen in
                    (screen.baseAddress! + Int(y) * width).update(from: ring + from * width, count: width)
                }
            }
        }

        func sync() {}

        /// Wayland's present (`SharedMemoryPresenter.presentRing`): the next buffer brought up to
        /// date, then shown from its offset; checks that every pixel that changed on screen
        /// lies in the damage.
        private func present(_ surface: UnsafeMutablePointer<SDL_Surface>, _ rects: [SDL_Rect]?) {
            guard var w = wayland else { return }
            defer { wayland = w }
            let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            #expect(Int(surface.pointee.pitch) == width * 4)
            let window = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(height))
            let changed = (rects ?? [window]).compactMap { r -> SDL_Rect? in
                var a = r, b = window, c = SDL_Rect()
                return SDL_IntersectRect(&a, &b, &c) == SDL_TRUE ? c : nil
            }
            defer { w.written = []; w.ringFrame = false }
            guard let lines = w.lines,
                  let offset = w.buffers.begin(first: w.first, written: w.written, changed: changed, ringFrame: w.ringFrame) else { return }
            let index = w.next
            w.next = 1 - index
            var damage: [SDL_Rect] = []
            let buffer = WindowCanvas(pixels: w.memory[index], stride: width, width: Int32(width), height: w.buffers.rows, format: format)
            let copied = w.buffers.fill(index, fresh: !w.filled[index], buffer: buffer, offset: offset,
                                        first: w.first, written: w.written, lines: lines, surface: source) { damage.append($0) }
            w.filled[index] = true
            if let shown = w.shownFirst, shown != w.first {
                let d = Int(abs(w.first - shown)) % height
                if min(d, height - d) < height / 8 { w.copiedWhenMoved.append(copied) }
            }
            w.shownFirst = w.first
            let view = w.memory[index] + Int(offset) * width
            pixels.withUnsafeMutableBufferPointer { screen in
                let shown = screen.baseAddress!
                for y in 0..<height where memcmp(shown + y * width, view + y * width, width * 4) != 0 {
                    // A row the damage covers whole changes as it likes; elsewhere each pixel
                    // that changed must lie in a damaged rectangle.
                    let whole = damage.contains { $0.x <= 0 && Int($0.x + $0.w) >= width && Int($0.y) <= y && y < Int($0.y + $0.h) }
                    if !whole && w.undamaged == nil {
                        for x in 0..<width where shown[y * width + x] & 0xFF_FFFF != view[y * width + x] & 0xFF_FFFF {
                            if !damage.contains(where: { Int($0.x) <= x && x < Int($0.x + $0.w) && Int($0.y) <= y && y < Int($0.y + $0.h) }) {
                                w.undamaged = "pixel (\(x), \(y)) changed outside the damage \(damage)"
                                break
                            }
                        }
                    }
                    (shown + y * width).update(from: view + y * width, count: width)
                }
            }
        }

        /// What the window surface's present sends: `rects` (nil: all) of its pixels.
        func take(_ surface: UnsafeMutablePointer<SDL_Surface>, _ rects: [SDL_Rect]?) {
            if wayland != nil { return present(surface, rects) }
            let source = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
            let stride = Int(surface.pointee.pitch) / 4
            let all = [SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(height))]
            pixels.withUnsafeMutableBufferPointer { screen in
                for r in rects ?? all {
                    let from = max(0, Int(r.x)), to = min(width, Int(r.x + r.w))
                    guard from < to else { continue }
                    for y in max(0, Int(r.y))..<max(0, min(height, Int(r.y + r.h))) {
                        (screen.baseAddress! + y * width + from).update(from: source + y * stride + from, count: to - from)
                    }
                }
            }
        }
    }

    struct Result: CustomStringConvertible {
        var frames = 0, ringFrames = 0, movedFrames = 0
        /// Of the frames where the list moved: the median share of the window's pixels
        /// written into the ring, and of its rows sent from it.
        var medianWritten = 1.0, medianSent = 1.0
        /// The first frame the screen did not show the scene, and how.
        var wrong: String?
        var description: String {
            "\(ringFrames) of \(frames) frames through the ring, \(movedFrames) moved it; median written \(medianWritten), sent \(medianSent)"
                + (wrong.map { "; \($0)" } ?? "")
        }
    }

    @Test(arguments: [1.0, 2.0])
    func whatTheScreenShowsEqualsTheSceneDrawnWhole(scale: Double) throws {
        let result = try play(scale: scale)
        #expect(result.wrong == nil, "\(result)")
        #expect(result.ringFrames > 300 && result.movedFrames > 100, "\(result)")
        // A frame that moves the list writes a small part of it: the rows it brings in.
        #expect(result.medianWritten < 0.1, "\(result)")
    }

    /// On Wayland the ring is kept as lines and shown through buffers that hold it from
    /// some row on, written from those lines (`RingBuffers`): the buffer shown equals the
    /// scene drawn whole, frame by frame; what
    /// changed on screen lies in the damage; and a frame that moves the list copies a small
    /// part of the window into the buffer (the rows it brings in, the overlays), not all.
    @Test(arguments: [1.0, 2.0])
    func waylandBuffersShowTheSceneDrawnWhole(scale: Double) throws {
        var wayland: Screen.Wayland?
        var ringUntouched = false
        let result = try play(scale: scale) { screen in
            screen.useWayland()
        } after: { screen in
            wayland = screen.wayland
            ringUntouched = screen.ringUntouched
        }
        // The buffers' rows come from the ring's lines (`RingRows`): no pixels of a ring.
        #expect(ringUntouched)
        #expect(result.wrong == nil, "\(result)")
        #expect(result.ringFrames > 300 && result.movedFrames > 100, "\(result)")
        let w = try #require(wayland)
        #expect(w.undamaged == nil, "\(w.undamaged ?? "")")
        let copied = w.copiedWhenMoved.sorted()
        #expect(copied.count > 100)
        let window = Double(w.buffers.width) * Double(w.buffers.height)
        #expect(Double(copied[copied.count / 2]) < 0.25 * window, "median pixels copied when the list moved: \(copied[copied.count / 2]) of \(window)")
    }

    /// The comparison sees a wrong screen: a ring shown one row off is caught at once.
    @Test func aRingShownFromTheWrongRowIsCaught() throws {
        let result = try play(scale: 1, misplace: true)
        #expect(result.wrong != nil, "\(result)")
    }

    /// IncrementalDrawTests' pull and refresh, then flings both ways through the middle:
    /// the list moves through its ring in both directions (SharedMemoryPresenterTests too).
    static let script = IncrementalDrawTests.script + """

            # flings both ways through the middle
            key Home
            wait 500ms
            down 240 700
            move 240 200 120ms
            up
            wait 1200ms
            down 240 200
            move 240 700 120ms
            up
            wait 1500ms
            """

    private func play(scale: Double, misplace: Bool = false, before: (Screen) -> Void = { _ in },
                      after: (Screen) -> Void = { _ in }) throws -> Result {
        let drawn = try Headless(scale: scale)
        let reference = try Headless(scale: scale)
        let surface = try #require(SDL_GetWindowSurface(drawn.display.window))
        let (w, h) = (Int(surface.pointee.w), Int(surface.pointee.h))
        let screen = Screen(width: w, height: h, pixelFormat: surface.pointee.format.pointee.format)
        screen.misplace = misplace
        before(screen)
        defer { after(screen) }
        drawn.painter.ring = screen
        let script = try GestureScript(parsing: Self.script)
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: script, fps: 60)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var scene = Scene(), previous: Scene?
        var result = Result()
        var written: [Double] = [], sent: [Double] = []
        var refreshes = 0
        let whole = try #require(SDL_GetWindowSurface(reference.display.window))
        driver.play(&model, source: ScriptedRefreshes()) { played, model in
            if played.effects.refreshRequest != nil { refreshes += 1 }
            scene.update(model: model)
            // The frame-time graph for a stretch in the middle: an overlay the renderer draws.
            if played.time > 2 && played.time < 6 {
                let t = played.time
                _ = profiler.record(FrameTiming(frame: played.frame, frameStart: t, inputDone: t + 0.001, updateDone: t + 0.002,
                                                renderDone: t + 0.004 + 0.002 * sin(t * 7), presentStart: t + 0.007,
                                                presentDone: t + 0.008, interval: 1.0 / 60, latency: nil, state: .idle))
                scene.showHUD(profiler)
            } else {
                scene.hideHUD()
            }
            let firstBefore = drawn.painter.ringFirst
            let painted = drawn.painter.draw(scene, since: previous)
            screen.rowsShown = 0
            screen.take(painted.ring)
            drawn.painter.present(painted)
            SDL_RenderFlush(drawn.display.renderer)
            switch painted.kind {
            case .nothing: break
            case .rects, .ring: screen.take(surface, drawn.painter.damage)
            case .whole: screen.take(surface, nil)
            }
            if painted.kind == .ring {
                result.ringFrames += 1
                if drawn.painter.ringFirst != firstBefore {
                    result.movedFrames += 1
                    written.append(Double(drawn.painter.ringPixelsWritten) / Double(w * h))
                    sent.append(Double(screen.rowsShown) / Double(h))
                }
            }
            reference.painter.draw(scene)
            SDL_RenderFlush(reference.display.renderer)
            if let wrong = firstDifference(screen.pixels, whole, width: w, height: h) {
                result.wrong = "frame \(played.frame) at \(played.time) s (\(painted.kind)): pixel (\(wrong.x), \(wrong.y)) is \(wrong.shown), drawn whole \(wrong.whole)"
                return false
            }
            result.frames += 1
            previous = scene
            return true
        }
        if result.wrong != nil { return result }
        #expect(refreshes == 2)
        written.sort()
        sent.sort()
        if !written.isEmpty { result.medianWritten = written[written.count / 2]; result.medianSent = sent[sent.count / 2] }
        return result
    }

    /// The first pixel where the screen differs from the surface, compared in RGB.
    private func firstDifference(_ screen: [UInt32], _ surface: UnsafeMutablePointer<SDL_Surface>, width: Int, height: Int)
        -> (x: Int, y: Int, shown: String, whole: String)? {
        let pixels = surface.pointee.pixels.assumingMemoryBound(to: UInt32.self)
        let stride = Int(surface.pointee.pitch) / 4
        return screen.withUnsafeBufferPointer { screen in
            for y in 0..<height where memcmp(screen.baseAddress! + y * width, pixels + y * stride, width * 4) != 0 {
                for x in 0..<width where screen[y * width + x] & 0xFF_FFFF != pixels[y * stride + x] & 0xFF_FFFF {
                    return (x, y, String(screen[y * width + x] & 0xFF_FFFF, radix: 16), String(pixels[y * stride + x] & 0xFF_FFFF, radix: 16))
                }
            }
            return nil
        }
    }
}
}
