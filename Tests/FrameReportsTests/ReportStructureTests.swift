import Testing
@testable import FrameReports
import OverscrollKit
import ProfilerTestSupport

/// The report's bounded structures: the SVG timeline and the trace ring.
@Suite struct ReportStructureTests {
    @Test func aMillionFramesKeepEveryFrameInBoundedBuckets() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var timeline = TimelineDownsampler(capacity: 64)
        var ring = FixedRing<TraceRecord>(capacity: 1_000, filler: .empty)
        var t = makeTiming(state: .dragging)
        for i in 0..<1_000_000 {
            t.frame = i
            t.interval = i % 100 == 0 ? 0.05 : 1.0 / 60
            let v = profiler.record(t)
            timeline.add(interval: t.interval, cpu: t.cpuTime, janky: v.janky, state: t.state)
            ring.append(TraceRecord(timing: t, verdict: v))
        }
        #expect(profiler.overall.frames == 1_000_000)
        #expect(profiler.overall.jankyFrames == 10_000)
        #expect(profiler.hudCount == profiler.hudCapacity)
        #expect(ring.count == 1_000)
        #expect(ring[ring.count - 1].timing.frame == 999_999)
        #expect(timeline.count <= 64 && timeline.count > 32)
        // Every frame is still accounted for, and the spikes survived the merges.
        var frames = 0, janky = 0, worst = 0.0
        timeline.forEach { frames += $0.frames; janky += $0.jankyFrames; worst = max(worst, $0.intervalMax) }
        #expect(frames == 1_000_000)
        #expect(janky == 10_000)
        #expect(worst == 0.05)
        #expect(abs(timeline.elapsed - (990_000.0 / 60 + 10_000 * 0.05)) < 1e-3)
    }

    @Test func timelineMergesPairsAndKeepsTimeContiguous() {
        var timeline = TimelineDownsampler(capacity: 4)
        for i in 0..<9 {
            timeline.add(interval: 0.01, cpu: 0.005, janky: false, state: i < 4 ? .idle : .dragging)
        }
        // 4 buckets of 1 → merged to 2 of 2, filled to 4 of 2 → merged to 2 of 4, then a 3rd.
        #expect(timeline.framesPerBucket == 4)
        #expect(timeline.count == 3)
        let b = timeline.buckets
        #expect(b.map(\.frames) == [4, 4, 1])
        #expect(b[0].dominantState == .idle && b[1].dominantState == .dragging)
        #expect(b[0].start == 0 && abs(b[0].end - b[1].start) < 1e-12 && abs(b[2].end - 0.09) < 1e-12)
    }
}
