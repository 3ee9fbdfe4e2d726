import CSDL
import Testing
import OverscrollKit
@testable import OverscrollSDL

/// The HUD in pixels in a 320 pt window: the panel and all its words inside the window,
/// and "at rest" drawn when the loop is about to sleep. The touch line at its widest (three
/// digits of ms twice) fits too.
extension SDLSuite { @Suite struct HUDRenderTests {
    static func scene(idle: Bool, scale: Double) -> Scene {
        let model = OverscrollModel(configuration: .init(viewportWidth: 320, viewportHeight: 800), rows: (0..<100).map { "Row \($0)" })
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for frame in 0..<240 {
            let t = Double(frame) / 60
            let slow = frame % 50 == 0
            var timing = FrameTiming(frame: frame, frameStart: t, inputDone: t + 0.001, updateDone: t + 0.002,
                                     renderDone: t + 0.004, presentStart: t + 0.004, presentDone: t + 0.005,
                                     interval: slow ? 0.040 : 1.0 / 60, latency: nil, state: .idle)
            // Every frame numbered for the screen; every 20th with a touch, slow to show.
            timing.scanoutSequence = frame + 1
            if frame % 20 == 0 { timing.touchTime = t - 0.1 }
            _ = profiler.record(timing)
            if frame % 20 == 0 { profiler.presented(sequence: frame + 1, at: t + (frame == 220 ? 0.0884 : 0.0884 + 0.1)) }
        }
        var scene = Scene(model: model)
        scene.showHUD(profiler, idle: idle, at: 4)
        return scene
    }

    @Test(arguments: [1.0, 2.0])
    func itsWordsAreInsideThePanelInsideA320PointWindow(scale: Double) throws {
        let headless = try Headless(width: 320, height: 800, scale: scale)
        let scene = Self.scene(idle: false, scale: scale)
        headless.painter.draw(scene)
        let picture = headless.readPixels()
        let hud = try #require(headless.painter.frame.hud)
        let panel = PixelRect(x: Int32(hud.panel.x), y: Int32(hud.panel.y), w: Int32(hud.panel.w), h: Int32(hud.panel.h))
        #expect(panel.x == Int32(8 * scale) && panel.x + panel.w == Int32(312 * scale))
        // The graph holds the last 120 frames (2 s), two of them (150 and 200) janky 40 ms ones.
        #expect(hud.lines.0.hasSuffix("fps · last frame 16.7 ms") && hud.lines.2 == "2 late of the last 120 frames", "\(hud.lines)")
        // Six touches on the graph (frames 120…220), shown 288.4 ms after, the newest 188.4.
        #expect(hud.lines.3 == "touch to glass 188.4 ms · p95 288.4 ms", "\(hud.lines)")
        // White ink: in the panel only, on each of the four lines and beside the budget line.
        var inkRows = Set<Int>()
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.at(x, y).brightness > 235 {
                #expect(panel.contains(x: x, y: y), "ink at (\(x), \(y)) outside the panel \(panel)")
                inkRows.insert(y)
            }
        }
        for i in 0..<4 {
            let top = Int(hud.lineOrigin(i).y)
            #expect((top..<top + Int(20 * scale)).contains { inkRows.contains($0) }, "line \(i)")
        }
        let budgetY = Int(hud.budgetLine.y)
        let right = Int(hud.budgetLine.x + hud.budgetLine.w)
        #expect((right..<Int(panel.x + panel.w)).contains { x in (budgetY - Int(6 * scale)...budgetY + Int(6 * scale)).contains { picture.at(x, $0).brightness > 200 } },
                "no label right of the budget line")
        // "at rest" instead of the fps: the first line's pixels change, the rest stay.
        headless.painter.draw(Self.scene(idle: true, scale: scale))
        let idle = headless.readPixels()
        #expect(headless.painter.frame.hud?.lines.0 == "at rest · last frame 16.7 ms")
        let first = Int(hud.lineOrigin(0).y)..<Int(hud.lineOrigin(1).y)
        let changed = (0..<picture.height).filter { y in (0..<picture.width).contains { picture.at($0, y) != idle.at($0, y) } }
        #expect(!changed.isEmpty && changed.allSatisfy { first.contains($0) }, "rows \(changed.first ?? -1)…\(changed.last ?? -1)")
        picture.writePPM("/tmp/hud-320-\(Int(scale)).ppm")
    }
} }

private extension PixelRect {
    func contains(x: Int, y: Int) -> Bool { x >= Int(self.x) && x < Int(self.x + w) && y >= Int(self.y) && y < Int(self.y + h) }
}
