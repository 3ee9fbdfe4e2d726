import CSDL
import Foundation
import OverscrollKit
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
        let canvas: WindowCanvas
        private let ring: UnsafeMutablePointer<UInt32>
        private let format: UnsafeMutablePointer<SDL_PixelFormat>
        /// What the window shows, in the surface's pixel format.
        var pixels: [UInt32]
        /// Window rows taken from the ring since the counter was last read.
        var rowsShown = 0
        /// When set, a show takes its rows one ring row off: a ring that lost track of its
        /// first row (the test's own check that a wrong screen is seen).
        var misplace = false

        init(width: Int, height: Int, pixelFormat: UInt32) {
            self.width = width
            self.height = height
            ring = .allocate(capacity: width * height)
            ring.initialize(repeating: 0xDEAD_BEEF, count: width * height)
            format = SDL_AllocFormat(pixelFormat)!
            canvas = WindowCanvas(pixels: ring, stride: width, width: Int32(width), height: Int32(height), format: format)
            pixels = Array(repeating: 0xFF00_FF, count: width * height)
        }

        deinit {
            ring.deallocate()
            SDL_FreeFormat(format)
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

        /// What the window surface's present sends: `rects` (nil: all) of its pixels.
        func take(_ surface: UnsafeMutablePointer<SDL_Surface>, _ rects: [SDL_Rect]?) {
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

    /// The comparison sees a wrong screen: a ring shown one row off is caught at once.
    @Test func aRingShownFromTheWrongRowIsCaught() throws {
        let result = try play(scale: 1, misplace: true)
        #expect(result.wrong != nil, "\(result)")
    }

    private func play(scale: Double, misplace: Bool = false) throws -> Result {
        let drawn = try Headless(scale: scale)
        let reference = try Headless(scale: scale)
        let surface = try #require(SDL_GetWindowSurface(drawn.display.window))
        let (w, h) = (Int(surface.pointee.w), Int(surface.pointee.h))
        let screen = Screen(width: w, height: h, pixelFormat: surface.pointee.format.pointee.format)
        screen.misplace = misplace
        drawn.painter.ring = screen
        let script = try GestureScript(parsing: IncrementalDrawTests.script + """

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
            """)
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: script, fps: 60)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var refreshes = ScriptedRefreshes()
        var scene = Scene(), previous: Scene?
        var result = Result()
        var written: [Double] = [], sent: [Double] = []
        repeat {
            refreshes.step(&model, &driver)
            scene.update(model: model)
            // The frame-time graph for a stretch in the middle: an overlay the renderer draws.
            if driver.time > 2 && driver.time < 6 {
                let t = driver.time
                _ = profiler.record(FrameTiming(frame: driver.frame, frameStart: t, inputDone: t + 0.001, updateDone: t + 0.002,
                                                renderDone: t + 0.004 + 0.002 * sin(t * 7), presentStart: t + 0.007,
                                                presentDone: t + 0.008, interval: 1.0 / 60, latency: nil, state: .idle))
                scene.showHUD(profiler)
            } else {
                scene.hideHUD()
            }
            let firstBefore = drawn.painter.ringFirst
            let painted = drawn.painter.draw(scene, since: previous)
            screen.rowsShown = 0
            drawn.painter.present(painted)
            SDL_RenderFlush(drawn.display.renderer)
            switch painted {
            case .nothing: break
            case .rects, .ring: screen.take(surface, drawn.painter.damage)
            case .whole: screen.take(surface, nil)
            }
            if painted == .ring {
                result.ringFrames += 1
                if drawn.painter.ringFirst != firstBefore {
                    result.movedFrames += 1
                    written.append(Double(drawn.painter.ringPixelsWritten) / Double(w * h))
                    sent.append(Double(screen.rowsShown) / Double(h))
                }
            }
            reference.painter.draw(scene)
            SDL_RenderFlush(reference.display.renderer)
            let whole = try #require(SDL_GetWindowSurface(reference.display.window))
            if let wrong = firstDifference(screen.pixels, whole, width: w, height: h) {
                result.wrong = "frame \(driver.frame) at \(driver.time) s (\(painted)): pixel (\(wrong.x), \(wrong.y)) is \(wrong.shown), drawn whole \(wrong.whole)"
                return result
            }
            result.frames += 1
            previous = scene
        } while !driver.endFrame(model: model)
        #expect(refreshes.count == 2)
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
