import Foundation
import OverscrollKit
import Testing
@testable import OverscrollSDL

/// The replay's hook for benchmarks: called once before every frame, and kept out of the
/// frames' CPU time.
extension SDLSuite { @Suite struct ReplayRunnerTests {
    @Test func beforeFrameRunsOnceBeforeEachFrameOutsideItsCPUTime() throws {
        var options = ReplayRunner.Options(script: try GestureScript(parsing: "down 240 600\nmove 240 300 300ms\nup"))
        options.width = 240
        options.height = 400
        var calls = 0
        var spent = 0.0
        options.beforeFrame = {
            calls += 1
            // CPU work that must not show in any frame's figure.
            let start = ProcessCPUClock.now()
            while ProcessCPUClock.now() - start < 0.002 {}
            spent += ProcessCPUClock.now() - start
        }
        var settings = AppSettings(rows: (0..<40).map { "Row \($0)" }, fontPath: try FontLocator.locate(explicit: nil))
        settings.sound = false
        let runner = try ReplayRunner(settings: settings, options: options, warn: { _ in })
        let (summary, _) = runner.run()
        #expect(summary.frames > 10)
        #expect(calls == summary.frames)
        // Counted in the frames, the hook's 2 ms a frame would make them cost more than it.
        #expect(summary.framesCPU < spent, "frames \(summary.framesCPU) s, hook \(spent) s")
        #expect(summary.loopCPU >= spent)
    }
} }
