import PropertyBased
import Testing
@testable import OverscrollKit
import TestSupport

@Suite struct ProfilerStatisticsTests {
    @Test func countsOverallAndPerState() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let period = 1.0 / 60
        // 10 smooth idle frames, 3 dragging frames of which 2 janky (2 and 3 periods), one over budget.
        for i in 0..<10 { profiler.record(makeTiming(frame: i, interval: period, state: .idle)) }
        profiler.record(makeTiming(frame: 10, interval: 2 * period, state: .dragging))
        profiler.record(makeTiming(frame: 11, interval: 3 * period, state: .dragging))
        profiler.record(makeTiming(frame: 12, render: 0.020, interval: period, state: .dragging))

        #expect(profiler.overall.frames == 13)
        #expect(profiler.overall.jankyFrames == 2)
        #expect(profiler.overall.missedVsyncs == 3)
        #expect(profiler.overall.overBudgetFrames == 1)
        let idle = profiler.statistics(for: .idle)
        let dragging = profiler.statistics(for: .dragging)
        #expect(idle.frames == 10 && idle.jankyFrames == 0 && idle.missedVsyncs == 0)
        #expect(dragging.frames == 3 && dragging.jankyFrames == 2 && dragging.missedVsyncs == 3)
        #expect(dragging.overBudgetFrames == 1)
        #expect(profiler.statistics(for: .momentum).frames == 0)
        #expect(profiler.statistics(for: .momentum).averageFPS == nil)
        #expect(profiler.statistics(for: .momentum).intervalPercentiles == nil)
    }

    @Test func averageFPSIsTimeWeightedNotTheMeanOfPerFrameFPS() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        // Nine 10 ms frames and one 100 ms frame: 10 frames in 190 ms = 52.6 fps.
        // The mean of per-frame fps would be (9 × 100 + 10) / 10 = 91 fps.
        for _ in 0..<9 { profiler.record(makeTiming(interval: 0.010)) }
        profiler.record(makeTiming(interval: 0.100))
        let fps = try! #require(profiler.overall.averageFPS)
        #expect(abs(fps - 10 / 0.190) < 1e-9)
    }

    @Test func onePercentLowIsThousandOverTheNearestRankP99Interval() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        // 1000 frames: 985 at 10 ms, 15 at 40 ms. p99 by nearest rank is rank 990 → 40 ms.
        for i in 0..<1000 { profiler.record(makeTiming(interval: i < 985 ? 0.010 : 0.040)) }
        let p = try! #require(profiler.overall.intervalPercentiles)
        #expect(p.p99 == 40)  // the largest value recorded: reported exactly
        // Others are the top of their HdrHistogram bucket: 10 ms reads as 10.007 ms.
        #expect(p.p50 >= 10 && p.p50 <= 10.01)
        #expect(profiler.overall.onePercentLowFPS == 25)
        // With only 5 slow frames of 1000, rank 990 is a fast one.
        var fewer = FrameProfiler(refreshPeriod: 1.0 / 60)
        for i in 0..<1000 { fewer.record(makeTiming(interval: i < 995 ? 0.010 : 0.040)) }
        let low = try! #require(fewer.overall.onePercentLowFPS)
        #expect(low > 99.9 && low <= 100)
    }

    @Test func percentilesAreNearestRankWithinHistogramPrecision() {
        let frames = syntheticRun(count: 5_000)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for f in frames { profiler.record(f) }
        let intervals = frames.map { ($0.interval * 1e6).rounded() / 1000 }.sorted()
        let p = try! #require(profiler.overall.intervalPercentiles)
        for (value, pct) in [(p.p50, 50.0), (p.p90, 90), (p.p95, 95), (p.p99, 99), (p.p99_9, 99.9)] {
            let exact = nearestRank(intervals, pct)
            // HdrHistogram reports the top of the value's bucket: ≥ exact, ≤ 0.1 % above.
            #expect(value >= exact - 1e-9 && value <= exact * 1.001 + 0.001, "p\(pct): \(value) vs \(exact)")
        }
        #expect(p.max == intervals.last!)
        #expect(p.min == intervals.first!)
        #expect(p.count == 5_000)
    }

    @Test func summariesAreOrderedAndTheirMeanIsExact() async {
        // Few values, equal values, and values that share a histogram bucket: the cases
        // where bucket bounds used to fall outside [min, max] (a mean of 16.664 under a
        // min of 16.667; a p50 of 10.007 over two samples of 10.000).
        let values = Gen.oneOf(Gen.double(in: 0.0001...0.1), Gen.always(1.0 / 60),
                               Gen.double(in: 0.009_999...0.010_008), Gen.double(in: 0...120), Gen.always(0.01))
        await propertyCheck(count: 300, input: values.array(of: 1...40)) { seconds in
            var histogram = MetricHistogram()
            for s in seconds { histogram.record(seconds: s) }
            let p = try #require(histogram.percentiles())
            let ordered = [p.min, p.p50, p.p90, p.p95, p.p99, p.p99_9, p.max]
            #expect(ordered == ordered.sorted(), "\(ordered)")
            #expect(p.min <= p.mean && p.mean <= p.max, "mean \(p.mean) outside [\(p.min), \(p.max)]")
            let micros = seconds.map { min(($0 * 1e6).rounded(), 60_000_000) }
            #expect(p.min == micros.min()! / 1000 && p.max == micros.max()! / 1000)
            #expect(abs(p.mean - micros.reduce(0, +) / Double(micros.count) / 1000) < 1e-9)
            // Each percentile is at or at most 0.1 % above the nearest-rank value.
            let sorted = micros.sorted().map { $0 / 1000 }
            for (value, pct) in [(p.p50, 50.0), (p.p90, 90), (p.p99, 99), (p.p99_9, 99.9)] {
                let exact = nearestRank(sorted, pct)
                #expect(value >= exact - 1e-9 && value <= exact * 1.001 + 0.001, "p\(pct): \(value) vs \(exact)")
            }
        }
    }

    @Test func valuesOutsideTheRangeAreClampedAndCounted() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        profiler.record(makeTiming(interval: 120))  // two minutes asleep
        profiler.record(makeTiming(interval: .nan))
        #expect(profiler.overall.frames == 2)
        #expect(profiler.overall.clampedValues == 2)
        #expect(profiler.overall.intervalPercentiles?.max == 60_000)
    }

    @Test func hudRingHoldsTheLastTwoSecondsOldestFirst() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60, hudSeconds: 2)
        #expect(profiler.hudCapacity == 120)
        for i in 0..<50 { profiler.record(makeTiming(frame: i, interval: Double(i) / 1000)) }
        #expect(profiler.hudSamples.count == 50)
        #expect(profiler.hudSamples.first?.interval == 0)
        for i in 50..<500 { profiler.record(makeTiming(frame: i, interval: Double(i) / 1000)) }
        let samples = profiler.hudSamples
        #expect(samples.count == 120)
        #expect(samples.map(\.interval) == (380..<500).map { Double($0) / 1000 })
        var buffer: [FrameProfiler.HUDSample] = []
        profiler.copyHUDSamples(into: &buffer)
        #expect(buffer == samples)
        // 144 Hz: more frames in the same two seconds.
        #expect(FrameProfiler(refreshPeriod: 1.0 / 144).hudCapacity == 288)
    }
}
