import Testing
@testable import FrameReports
import OverscrollKit
import TestSupport

/// The report's bounded structures: the SVG timeline and the trace ring.
@Suite struct ReportStructureTests {
    @Test func aMillionFramesKeepEveryFrameInBoundedBuckets() {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        var timeline = TimelineDownsampler(capacity: 64)
        var ring = FixedRing<TraceRecord>(capacity: 1_000, filler: .empty)
        let capacityBefore = (profiler.hudCapacity, timeline.capacity, ring.capacity)
        var t = makeTiming(state: .dragging)
        var now = 0.0
        for i in 0..<1_000_000 {
            t.frame = i
            t.interval = i % 100 == 0 ? 0.05 : 1.0 / 60
            now += t.interval
            let v = profiler.record(t)
            timeline.add(time: now, interval: t.interval, cpu: t.cpuTime, janky: v.janky, state: t.state)
            ring.append(TraceRecord(timing: t, verdict: v))
        }
        #expect(profiler.overall.frames == 1_000_000)
        #expect(profiler.overall.jankyFrames == 10_000)
        #expect(profiler.hudCount == profiler.hudCapacity)
        #expect((profiler.hudCapacity, timeline.capacity, ring.capacity) == capacityBefore)
        #expect(ring.count == 1_000)
        #expect(ring[ring.count - 1].timing.frame == 999_999)
        #expect(timeline.count <= 64 && timeline.count > 32)
        // Every frame is still accounted for, and the spikes survived the merges.
        var frames = 0, janky = 0, worst = 0.0
        timeline.forEach { frames += $0.frames; janky += $0.jankyFrames; worst = max(worst, $0.intervalMax) }
        #expect(frames == 1_000_000)
        #expect(janky == 10_000)
        #expect(worst == 0.05)
        #expect(abs(timeline.end - (990_000.0 / 60 + 10_000 * 0.05)) < 1e-3)
        // Frames back to back leave no gap, however the buckets were merged.
        timeline.forEach { #expect($0.isDrawn) }
    }

    @Test func timelineBucketsAreSlicesOfRunTimeThatDoubleWhenFull() {
        var timeline = TimelineDownsampler(capacity: 4, bucketSeconds: 0.01)
        for i in 0..<9 {
            timeline.add(time: 0.01 * Double(i + 1), interval: 0.01, cpu: 0.005, janky: false, state: i < 4 ? .idle : .dragging)
        }
        // 4 slices of 10 ms hold 0…40 ms; 50 ms doubles them to 20 ms, 90 ms to 40 ms.
        #expect(timeline.bucketSeconds == 0.04)
        #expect(timeline.origin == 0 && timeline.end == 0.09)
        let b = timeline.buckets
        #expect(b.count == 3)
        #expect(b.map(\.frames).reduce(0, +) == 9)
        #expect(b[0].dominantState == .idle && b[1].dominantState == .dragging)
        #expect(b[0].start == 0 && abs(b[0].end - b[1].start) < 1e-12 && abs(b[2].end - 0.12) < 1e-12)
        #expect(b.allSatisfy { $0.isDrawn })
    }

    @Test func timeWithoutFramesIsAGapAndALongFrameIsNot() {
        var timeline = TimelineDownsampler(capacity: 128, bucketSeconds: 0.01)
        var now = 0.0
        func frames(_ n: Int, interval: Double = 1.0 / 60) {
            for _ in 0..<n { now += interval; timeline.add(time: now, interval: interval, cpu: 0.002, janky: false, state: .dragging) }
        }
        frames(10)                  // 0 … 0.167 s
        now += 0.2                  // idle: nothing drawn for 200 ms
        frames(10)
        frames(1, interval: 0.1)    // one slow frame of 100 ms: drawn all along
        frames(2)
        let b = timeline.buckets
        let gap = b.filter { !$0.isDrawn }
        #expect(!gap.isEmpty)
        // The gap lies inside the idle 200 ms, and nothing else is a gap.
        #expect(gap.allSatisfy { $0.start >= 10.0 / 60 - 1e-9 && $0.end <= 10.0 / 60 + 0.2 + 1e-9 })
        #expect(gap.count >= 15)
        let slowFrameEnd = 20.0 / 60 + 0.2 + 0.1
        #expect(b.filter { $0.start > 10.0 / 60 + 0.2 && $0.end <= slowFrameEnd }.allSatisfy { $0.isDrawn })
        #expect(abs(timeline.end - (22.0 / 60 + 0.3)) < 1e-9)
    }
}
