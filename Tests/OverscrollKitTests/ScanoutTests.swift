import Testing
@testable import OverscrollKit
import TestSupport

/// Touch to scanout in the profiler: a frame's value is completed late, when the
/// presenter hears its flip, and only from what was heard.
@Suite struct ScanoutTests {
    @Test func theNextVblankIsStrictlyAfterTheCommit() {
        let vblank = FixedVblank(period: 0.016, phase: 10)
        #expect(vblank.next(after: 10.001) == 10.016)
        #expect(vblank.next(after: 10.016) == 10.032)
        #expect(vblank.next(after: 9.999) == 10)
    }

    @Test func aTouchIsMeasuredToTheVblankThatShowedItsFrame() throws {
        let vblank = FixedVblank(period: 1.0 / 60, phase: 0)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var frame = makeTiming(frame: 0, start: 100.0005, state: .dragging)
        frame.touchTime = 100.0001
        frame.scanoutSequence = 1
        profiler.record(frame)
        // Nothing known until the flip is heard.
        #expect(profiler.overall.touchToScanoutPercentiles == nil)
        let shown = vblank.next(after: frame.presentDone)
        let heard = profiler.presented(sequence: 1, at: shown)
        let completed = try #require(heard)
        #expect(completed.frame == 0)
        #expect(completed.touchToScanout == shown - 100.0001)
        let p = try #require(profiler.overall.touchToScanoutPercentiles)
        #expect(p.count == 1)
        #expect(abs(p.max - (shown - 100.0001) * 1000) < 0.001)
        #expect(profiler.statistics(for: .dragging).touchToScanoutPercentiles?.count == 1)
        #expect(profiler.statistics(for: .idle).touchToScanoutPercentiles == nil)
        // Heard twice: counted once.
        let again = profiler.presented(sequence: 1, at: shown)
        #expect(again == nil)
        #expect(profiler.overall.touchToScanoutPercentiles?.count == 1)
    }

    @Test func aFlipNeverHeardOrAPathThatHearsNothingIsNotKnown() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var missed = makeTiming(frame: 0, start: 100)
        missed.touchTime = 99.999
        missed.scanoutSequence = 1
        profiler.record(missed)
        var noFeedback = makeTiming(frame: 1, start: 100.02)
        noFeedback.touchTime = 100.019
        noFeedback.scanoutSequence = 0
        profiler.record(noFeedback)
        // Flip 2 (a frame without a touch) is heard, flip 1's event never was: frame 0 is
        // not given flip 2's time.
        let second = profiler.presented(sequence: 2, at: 100.05)
        let late = profiler.presented(sequence: 1, at: 100.03)
        #expect(second == nil && late == nil)
        #expect(profiler.overall.touchToScanoutPercentiles == nil)
    }

    /// The HUD's graph gets the value at the frame that showed the touch, once heard; a
    /// path whose frames carry no scanout number is one the HUD calls not known.
    @Test func aHeardPresentationMarksItsFrameOnTheHUDGraph() throws {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var plain = makeTiming(frame: 0, start: 100)
        plain.touchTime = 99.99
        profiler.record(plain)
        #expect(!profiler.hearsScanout)
        var touched = makeTiming(frame: 1, start: 100.02)
        touched.touchTime = 100.019
        touched.scanoutSequence = 7
        profiler.record(touched)
        var next = makeTiming(frame: 2, start: 100.04)
        next.scanoutSequence = 8
        profiler.record(next)
        #expect(profiler.hearsScanout)
        #expect(profiler.hudSamples.allSatisfy { $0.touchToScanout == nil })
        profiler.presented(sequence: 7, at: 100.0357)
        let samples = profiler.hudSamples
        #expect(samples.map(\.frame) == [0, 1, 2])
        let value = try #require(samples[1].touchToScanout)
        #expect(abs(value - 0.0167) < 1e-9)
        #expect(samples[0].touchToScanout == nil && samples[2].touchToScanout == nil)
        // Shown on the HUD through the scene: the graph knows the path can know.
        var scene = Scene()
        scene.showHUD(profiler)
        #expect(scene.hud?.scanoutKnown == true && scene.hud?.samples[1].touchToScanout == value)
    }

    @Test func waitingFramesAreBoundedAndTheOldestFallsOut() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for i in 0..<40 {
            var f = makeTiming(frame: i, start: 100 + Double(i) / 60)
            f.touchTime = f.frameStart
            f.scanoutSequence = i + 1
            profiler.record(f)
        }
        // The first frames fell out of the fixed wait: not known, not guessed.
        let first = profiler.presented(sequence: 1, at: 200)
        #expect(first == nil)
        let last = profiler.presented(sequence: 40, at: 100 + 40.0 / 60)
        #expect(last?.frame == 39)
    }
}
