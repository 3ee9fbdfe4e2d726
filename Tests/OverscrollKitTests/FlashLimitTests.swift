import Testing
@testable import OverscrollKit

/// The threshold flash cannot strobe: however often a finger crosses the threshold, the
/// screen flashes at most once in any second (WCAG 2.3.1), while the tick still sounds on
/// every crossing.
@Suite struct FlashLimitTests {
    /// A finger wiggling across the threshold every 100 ms for 1.6 s.
    static let wiggle = "down 240 100\n" + String(repeating: "move 240 400 100ms\nmove 240 250 100ms\n", count: 8) + "up\nwait 3s"

    func times(_ samples: [FrameSample], _ event: FrameEvents) -> [Double] {
        samples.filter { $0.events.contains(event) }.map(\.time)
    }

    @Test func aWiggleTicksOnEveryCrossingButFlashesAtMostOnceASecond() throws {
        let samples = try replay(Self.wiggle, fps: 60)
        let feedback = times(samples, .feedback), flashes = times(samples, .flash)
        #expect(feedback.count >= 6, "the wiggle should cross the threshold on most strokes: \(feedback)")
        #expect(flashes.count >= 2 && flashes.count < feedback.count)
        // Every flash is a crossing's, and no two fall within a second.
        #expect(flashes.allSatisfy(feedback.contains))
        for (a, b) in zip(flashes, flashes.dropFirst()) { #expect(b - a >= 1 - 1e-9, "flashes at \(a) and \(b)") }
        // A crossing a second after the last flash flashes again: the limit delays nothing.
        for t in feedback where !flashes.contains(t) {
            #expect(flashes.contains { $0 <= t && t - $0 < 1 }, "a crossing at \(t) neither flashed nor fell in a flash's second")
        }
    }

    @Test func aPlainPullFlashesExactlyOnce() throws {
        let samples = try replay("down 240 150\nmove 240 550 700ms\nwait 200ms\nup\nwait 4s", fps: 60)
        #expect(times(samples, .feedback).count == 1)
        #expect(times(samples, .flash) == times(samples, .feedback))
    }

    @Test func theSceneShowsOnlyTheFlashesThatWereAllowed() throws {
        var model = makeModel()
        let script = try GestureScript(parsing: Self.wiggle)
        var driver = ReplayDriver(script: script, fps: 60)
        var shown = 0, suppressed = 0
        driver.play(&model) { played, model in
            let scene = Scene(model: model)
            if played.effects.events.contains(.flash) {
                #expect(scene.flash > 0.85 * Scene.flashPeak)
                shown += 1
            } else if played.effects.events.contains(.feedback) {
                #expect(scene.flash == 0, "a crossing \(model.now - model.lastFlash) s after the last flash lit the screen")
                suppressed += 1
            }
            return true
        }
        #expect(shown >= 2 && suppressed >= 2)
    }

    @Test func withFlashesOffTheTickStaysAndNothingFlashes() throws {
        var c = makeModel().configuration
        c.flashes = false
        let model = OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
        let samples = try replay(Self.wiggle, fps: 60, model: model)
        #expect(times(samples, .feedback).count >= 6)
        #expect(times(samples, .flash).isEmpty)
    }
}
