import Foundation
import Testing
@testable import FrameReports
@testable import OverscrollKit
import TestSupport

/// summary.json's metadata.presentation_feedback: the flags of the frames a Wayland
/// compositor presented, and the commits it discarded; null on a path without them.
@Suite struct PresentationCountsTests {
    @Test func eachFlagIsCountedOverThePresentedFramesWithTheDiscarded() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(mode: "live"))
        let model = makeModel()
        let heard: [(PresentationFlags, Int)] = [([.vsync, .hwClock], 0), ([.vsync], 2), ([.zeroCopy, .hwCompletion], 1)]
        for i in 0..<4 {
            var f = makeTiming(frame: i, start: 100 + Double(i) / 60)
            f.touchTime = f.frameStart - 0.002
            f.scanoutSequence = i + 1
            writer.append(f, profiler.record(f), model: model, events: model.events)
            if i < heard.count {
                writer.presented(sequence: i + 1, at: f.presentDone + 0.01, flags: heard[i].0, discardedBefore: heard[i].1)
            }
        }
        try writer.finish(profiler: profiler)
        let summary = try ReportWriterTests.json(dir + "/summary.json")
        let metadata = try #require(summary["metadata"] as? [String: Any])
        let counts = try #require(metadata["presentation_feedback"] as? [String: Int])
        #expect(counts == ["presented": 3, "discarded": 3, "vsync": 2, "hw_clock": 1, "hw_completion": 1, "zero_copy": 1])
    }

    @Test func aPathWithoutFlagsLeavesItNull() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        var f = makeTiming(frame: 0, start: 100)
        f.touchTime = 99.99
        f.scanoutSequence = 1
        let (profiler, writer) = try ReportWriterTests.run([f], into: dir, finish: false)
        // DRM's flip event: a time, no flags.
        writer.presented(sequence: 1, at: 100.02)
        try writer.finish(profiler: profiler)
        let metadata = try #require(try ReportWriterTests.json(dir + "/summary.json")["metadata"] as? [String: Any])
        #expect(metadata["presentation_feedback"] is NSNull)
    }
}
