import CSDL
import Foundation
import OverscrollKit
import RowSources
import Testing
@testable import OverscrollSDL

/// The CPU path writes only the pixel rows of the list that changed and presents only what
/// it wrote. Played frame by frame through drags, a tap, pulls that refresh and fail, the
/// frame-time graph and the bottom edge, every frame drawn that way must equal the same
/// scene drawn whole, and every pixel that changed must lie in what it presents.
extension SDLSuite { @Suite struct IncrementalDrawTests {
    static let script = """
        # up through the rows, and a fling
        down 240 600
        move 240 300 300ms
        up
        wait 400ms
        # a tap: highlighted, then selected
        down 100 200
        wait 150ms
        up
        wait 200ms
        # back to the top and past the threshold: status line, arc, flash; rows arrive
        key Home
        wait 600ms
        down 240 100
        move 240 760 900ms
        wait 100ms
        up
        wait 2s
        # a refresh that fails: the banner
        down 240 100
        move 240 600 600ms
        up
        wait 1500ms
        # past the bottom edge
        key End
        wait 800ms
        down 240 600
        move 240 200 300ms
        up
        wait 900ms
        """

    @Test(arguments: [1.0, 2.0])
    func everyFrameDrawnInPartsEqualsTheSameSceneDrawnWhole(scale: Double) throws {
        let headless = try Headless(scale: scale)
        let script = try GestureScript(parsing: Self.script)
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshTimeout = 10
        var model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0) · a list you touch" })
        var driver = ReplayDriver(script: script, fps: 60)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var scene = Scene(), previous: Scene?
        var shown: Image?
        var counts = (frames: 0, partial: 0, nothing: 0, refreshes: 0)
        driver.play(&model, source: ScriptedRefreshes()) { played, model in
            if played.effects.refreshRequest != nil { counts.refreshes += 1 }
            scene.update(model: model)
            // The frame-time graph over the second half.
            if played.time > 2 {
                let t = played.time
                _ = profiler.record(FrameTiming(frame: played.frame, frameStart: t, inputDone: t + 0.001, updateDone: t + 0.002,
                                                renderDone: t + 0.004 + 0.002 * sin(t * 7), presentStart: t + 0.007,
                                                presentDone: t + 0.008, interval: 1.0 / 60, latency: nil, state: .idle))
                scene.showHUD(profiler)
            }

            let painted = headless.painter.draw(scene, since: previous)
            let window = (w: Int32(480 * scale), h: Int32(800 * scale))
            let outsideWindow = headless.painter.damage.first { $0.x < 0 || $0.y < 0 || $0.x + $0.w > window.w || $0.y + $0.h > window.h }
            #expect(outsideWindow == nil, "frame \(played.frame): presents \(outsideWindow!) beyond the window")
            headless.painter.present(painted)
            let partial = headless.readPixels()
            if let before = shown {
                let outside = changedOutside(painted, headless.painter.damage, before: before, after: partial)
                #expect(outside == nil, "frame \(played.frame) at \(played.time) s: pixel \(outside!) changed but was not presented")
            }
            headless.painter.draw(scene)
            let whole = headless.readPixels()
            let wrong = firstDifference(partial, whole)
            #expect(wrong == nil, "frame \(played.frame) at \(played.time) s (\(painted.kind)): pixel \(wrong!) differs from a whole draw")
            if wrong != nil { return false }
            counts.frames += 1
            if painted.kind == .rects { counts.partial += 1 }
            if painted.kind == .nothing { counts.nothing += 1 }
            shown = whole
            previous = scene
            return true
        }
        // The run went through what it is meant to: both refreshes, and frames of each kind.
        #expect(counts.refreshes == 2)
        #expect(model.rows.count == 102)
        #expect(counts.partial > 10 && counts.nothing > 10 && counts.frames > 400, "\(counts)")
    }

    /// The first pixel (x, y) where two pictures differ.
    private func firstDifference(_ a: Image, _ b: Image) -> (x: Int, y: Int)? {
        for y in 0..<a.height where !sameRow(a, b, y) {
            for x in 0..<a.width where a.pixels[y * a.width + x] != b.pixels[y * b.width + x] { return (x, y) }
        }
        return nil
    }

    /// A pixel that differs between `before` and `after` outside what `painted` presented.
    private func changedOutside(_ painted: Painter.Painted, _ damage: [SDL_Rect], before: Image, after: Image) -> (x: Int, y: Int)? {
        if painted.kind == .whole { return nil }
        for y in 0..<after.height where !sameRow(before, after, y) {
            for x in 0..<after.width where before.pixels[y * after.width + x] != after.pixels[y * after.width + x] {
                let inside = painted.kind == .rects && damage.contains { x >= $0.x && x < $0.x + $0.w && y >= $0.y && y < $0.y + $0.h }
                if !inside { return (x, y) }
            }
        }
        return nil
    }

    private func sameRow(_ a: Image, _ b: Image, _ y: Int) -> Bool {
        a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                memcmp(pa.baseAddress! + y * a.width * 4, pb.baseAddress! + y * b.width * 4, a.width * 4) == 0
            }
        }
    }
}
}

/// The scripted drawing tests' refresh work: it answers 0.4 s after it starts, with new rows
/// the first time and a failure after.
struct ScriptedRefreshes: RefreshSource {
    func start(_ job: RefreshJob) {
        let answer: RefreshResult = job.generation == 1 ? .success(["New row one", "New row two"]) : .failure("server unreachable")
        job.complete(answer, at: job.startTime + 0.4)
    }
}
