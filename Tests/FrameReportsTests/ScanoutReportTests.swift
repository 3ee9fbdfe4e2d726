import Foundation
import Testing
@testable import FrameReports
@testable import OverscrollKit
import TestSupport

/// touch_to_scanout_ms in frames.csv, summary.json and trace.json: rows wait for their
/// frame's flip, go out in order, and say nothing where nothing was heard.
@Suite struct ScanoutReportTests {
    /// Frames 0…n-1 at 60 Hz, a touch read 3 ms before each even frame, flips numbered
    /// from 1 (frame 2 on a path that hears nothing: sequence 0).
    static func frames(_ n: Int, vblank: FixedVblank) -> [FrameTiming] {
        (0..<n).map { i in
            var f = makeTiming(frame: i, start: 100 + Double(i) / 60 + 0.001, state: .dragging)
            if i % 2 == 0 { f.touchTime = f.frameStart - 0.003 }
            f.scanoutSequence = i == 2 ? 0 : i + 1
            return f
        }
    }

    @Test func eachRowGetsItsTouchToTheVblankThatShowedIt() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let vblank = FixedVblank(period: 1.0 / 60, phase: 100)
        let frames = Self.frames(8, vblank: vblank)
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(mode: "live"))
        let model = makeModel()
        var expected: [Int: Double] = [:]
        for (i, f) in frames.enumerated() {
            writer.append(f, profiler.record(f), model: model, events: model.events)
            // The flip of the frame before is heard during this one, as on DRM; frame 4's
            // event is lost (a VT switch), the last frame's never comes (the run ended).
            if i > 0, i - 1 != 4 {
                let before = frames[i - 1]
                guard before.scanoutSequence > 0 else { continue }
                let shown = vblank.next(after: before.presentDone)
                profiler.presented(sequence: before.scanoutSequence, at: shown)
                writer.presented(sequence: before.scanoutSequence, at: shown)
                if let touch = before.touchTime { expected[before.frame] = shown - touch }
            }
        }
        try writer.finish(profiler: profiler)

        let csv = try readFramesCSV(dir + "/frames.csv")
        let column = try #require(csv.header.firstIndex(of: "touch_to_scanout_ms"))
        #expect(csv.header[column - 1] == "latency_ms")
        #expect(csv.rows.map { Int($0[0]) } == Array(0..<8), "rows stay in frame order")
        for row in csv.rows {
            let frame = try #require(Int(row[0]))
            if let value = expected[frame] {
                #expect(abs(try #require(Double(row[column])) - value * 1000) < 0.0006, "frame \(frame)")
            } else {
                // Odd frames: no touch; 2: no feedback; 4: its flip never heard.
                #expect(row[column] == "", "frame \(frame)")
            }
        }
        #expect(Set(expected.keys) == [0, 6])
        let summary = try ReportWriterTests.json(dir + "/summary.json")
        let figure = try #require(summary["touch_to_scanout_ms"] as? [String: Any])
        #expect(figure["count"] as? Int == 2)
        let worst = try #require(expected.values.max())
        #expect(abs(try #require(figure["max"] as? Double) - worst * 1000) < 0.001)

        // trace.json: a flow from each measured touch into its frame, the value at the vblank.
        let trace = try ReportWriterTests.json(dir + "/trace.json")
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let starts = events.filter { $0["ph"] as? String == "s" }, ends = events.filter { $0["ph"] as? String == "f" }
        #expect(starts.compactMap { $0["id"] as? Int }.sorted() == [0, 6])
        #expect(ends.compactMap { $0["id"] as? Int }.sorted() == [0, 6])
        let frameSlices = events.filter { $0["name"] as? String == "frame" }
        for end in ends {
            let ts = try #require(end["ts"] as? Double), id = try #require(end["id"] as? Int)
            let slice = try #require(frameSlices.first { ($0["args"] as? [String: Any])?["frame"] as? Int == id })
            let start = try #require(slice["ts"] as? Double), dur = try #require(slice["dur"] as? Double)
            #expect(ts >= start && ts <= start + dur, "the flow ends inside frame \(id)'s slice")
        }
        let counters = events.filter { $0["name"] as? String == "touch_to_scanout_ms" && $0["ph"] as? String == "C" }
        let values = counters.compactMap { ($0["args"] as? [String: Double])?["touch_to_scanout_ms"] }
        #expect(values.count == 2)
        for (v, frame) in zip(values, [0, 6]) { #expect(abs(v - expected[frame]! * 1000) < 0.001) }
    }

    @Test func withoutFeedbackNothingWaitsAndTheFigureIsNull() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let frames = (0..<5).map { i -> FrameTiming in
            var f = makeTiming(frame: i, start: 100 + Double(i) / 60)
            f.touchTime = f.frameStart
            return f
        }
        let (_, writer) = try ReportWriterTests.run(frames, into: dir, finish: false)
        // Streamed at once: the flusher can write every row before the run ends.
        writer.flushNow()
        #expect(try readFramesCSV(dir + "/frames.csv").rows.count == 5)
        try writer.finish(profiler: FrameProfiler(refreshPeriod: 1.0 / 60))
        let summary = try ReportWriterTests.json(dir + "/summary.json")
        #expect(summary["touch_to_scanout_ms"] is NSNull)
    }

    @Test func aRowWaitsForItsFlipThenIsStreamed() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(mode: "live"))
        let model = makeModel()
        var f = makeTiming(frame: 0, start: 100)
        f.touchTime = 99.99
        f.scanoutSequence = 1
        writer.append(f, FrameVerdict(timing: f, refreshPeriod: 1.0 / 60), model: model, events: model.events)
        writer.flushNow()
        #expect(try readFramesCSV(dir + "/frames.csv").rows.isEmpty)
        writer.presented(sequence: 1, at: 100.02)
        writer.flushNow()
        let rows = try readFramesCSV(dir + "/frames.csv")
        let column = try #require(rows.header.firstIndex(of: "touch_to_scanout_ms"))
        #expect(rows.rows.count == 1)
        #expect(rows.rows.first?[column] == "30.000")
    }
}
