import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FrameReports
@testable import OverscrollKit
import TestSupport

/// The report directory as a run leaves it: files, their contents, and their limits.
@Suite struct ReportWriterTests {
    /// Records `frames` through a profiler and a writer, the way the loop will.
    @discardableResult
    static func run(_ frames: [FrameTiming], into dir: String, traceCapacity: Int = 36_000,
                    buckets: Int = 512, finish: Bool = true) throws -> (FrameProfiler, ReportWriter) {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(),
                                      traceCapacity: traceCapacity, timelineBuckets: buckets)
        // The model's clock runs with the frames, as in a run: frames.svg's x-axis is it.
        var model = makeModel()
        var now = 0.0
        for f in frames {
            now += f.interval
            model.advance(to: now)
            let v = profiler.record(f)
            writer.append(f, v, model: model, events: model.events)
        }
        if finish { try writer.finish(profiler: profiler) }
        return (profiler, writer)
    }

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func summaryPercentilesMatchTheCSVOfTheSameRun() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let frames = syntheticRun(count: 5_000)
        try Self.run(frames, into: dir)

        let csv = try readFramesCSV(dir + "/frames.csv")
        let column = { (name: String) throws -> Int in try #require(csv.header.firstIndex(of: name)) }
        let summary = try Self.json(dir + "/summary.json")
        for (metric, name) in [("interval_ms", "interval_ms"), ("cpu_ms", "cpu_ms"), ("latency_ms", "latency_ms")] {
            let index = try column(name)
            let values = csv.rows.compactMap { Double($0[index]) }.sorted()
            let reported = try #require(summary[metric] as? [String: Any])
            #expect(Set(reported.keys).isSuperset(of: ["min", "p50", "p90", "p95", "p99", "p99.9", "max"]))
            for (key, pct) in [("p50", 50.0), ("p90", 90), ("p95", 95), ("p99", 99), ("p99.9", 99.9)] {
                let exact = nearestRank(values, pct)
                let value = try #require(reported[key] as? Double)
                #expect(value >= exact - 1e-9 && value <= exact * 1.001 + 0.001, "\(metric) \(key): \(value) vs \(exact)")
            }
            #expect(reported["max"] as? Double == values.last)
            #expect(reported["min"] as? Double == values.first)
            #expect(reported["count"] as? Int == values.count)
        }
        // Counts agree with the rows too.
        let janky = try column("janky"), missed = try column("missed_vsyncs"), over = try column("over_budget")
        #expect(summary["frames"] as? Int == 5_000)
        #expect(summary["janky_frames"] as? Int == csv.rows.filter { $0[janky] == "1" }.count)
        #expect(summary["missed_vsyncs"] as? Int == csv.rows.reduce(0) { $0 + Int($1[missed])! })
        #expect(summary["over_budget_frames"] as? Int == csv.rows.filter { $0[over] == "1" }.count)
        #expect((summary["janky_frames"] as? Int ?? 0) > 0)
        #expect(summary["format_version"] as? Int == ReportSummary.formatVersion)
        #expect(summary["trace_frames_kept"] as? Int == 5_000)
        // avg fps is frames over the summed intervals.
        let intervalIndex = try column("interval_ms")
        let totalMs = csv.rows.reduce(0.0) { $0 + Double($1[intervalIndex])! }
        let avg = try #require(summary["avg_fps"] as? Double)
        #expect(abs(avg - 5_000 / (totalMs / 1000)) < 0.01)
        let interval = try #require(summary["interval_ms"] as? [String: Any])
        #expect(abs((summary["one_percent_low_fps"] as? Double ?? 0) - 1000 / (interval["p99"] as! Double)) < 1e-9)
        // Per state: every state present, and the frames add up.
        let states = try #require(summary["states"] as? [String: [String: Any]])
        #expect(Set(states.keys) == Set(UIState.allCases.map(\.rawValue)))
        #expect(states.values.reduce(0) { $0 + ($1["frames"] as? Int ?? 0) } == 5_000)
        let stateIndex = try column("ui_state")
        for (name, group) in states {
            #expect(group["frames"] as? Int == csv.rows.filter { $0[stateIndex] == name }.count, "\(name)")
            #expect(group["interval_ms"] is [String: Any])
        }
        let metadata = try #require(summary["metadata"] as? [String: Any])
        #expect(metadata["mode"] as? String == "replay")
        #expect(metadata["fps"] as? Int == 60)
    }

    @Test func csvHasTheTraceColumnsThenTheTimingAndARowPerFrame() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let frames = [
            makeTiming(frame: 0, start: 10, input: 0.001, update: 0.002, render: 0.003, present: 0.0005,
                       interval: 1.0 / 60, latency: 0.0123456, state: .dragging),
            makeTiming(frame: 1, start: 10.05, render: 0.020, interval: 0.05, state: .overscrolled),
        ]
        try Self.run(frames, into: dir)
        let text = try String(contentsOfFile: dir + "/frames.csv", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] + "\n" == FrameRowFormat.header)
        // The trace's columns, its refresh `state` named `refresh_state` beside `ui_state`.
        let traceColumns = TraceFormat.header.dropLast().split(separator: ",").map { $0 == "state" ? "refresh_state" : String($0) }
        #expect(traceColumns[4] == "refresh_state" && !lines[0].split(separator: ",").contains("state"))
        #expect(lines[0].split(separator: ",").map(String.init) == traceColumns + [
            "interval_ms", "cpu_ms", "input_ms", "update_ms", "render_ms", "present_ms", "latency_ms", "touch_to_scanout_ms",
            "missed_vsyncs", "janky", "over_budget", "dominant_phase", "ui_state",
        ])
        // The trace part is exactly what TraceFormat writes for the same frame and model.
        // (`run` moves the model's clock on by each frame's interval, as a run does.)
        var expected = CSVRowBuffer()
        var model = makeModel()
        model.advance(to: frames[0].interval)
        TraceFormat.appendRow(&expected, frame: 0, model: model, events: model.events)
        let tracePart = String(decoding: expected.bytes.dropLast(), as: UTF8.self)
        #expect(lines[1].hasPrefix(tracePart + ","))
        #expect(lines[1].dropFirst(tracePart.count + 1) == "16.667,6.500,1.000,2.000,3.000,0.500,12.346,,0,0,0,render,dragging")
        #expect(lines[2].hasSuffix(",50.000,24.000,1.000,2.000,20.000,1.000,,,2,1,1,render,overscrolled"))
        // Every row has as many cells as the header.
        for line in lines { #expect(line.split(separator: ",", omittingEmptySubsequences: false).count == traceColumns.count + 13) }
    }

    @Test func rowsReachTheDiskWithoutFinish() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let (_, writer) = try Self.run(syntheticRun(count: 300), into: dir, finish: false)
        let path = dir + "/frames.csv"
        // Streamed while the run goes on (every 0.25 s); the deadline is generous for a loaded machine.
        #expect(try pollUntil(timeout: 20) { try readFramesCSV(path).rows.count == 300 })
        #expect(!FileManager.default.fileExists(atPath: dir + "/summary.json"))
        // More frames later are streamed too.
        let model = makeModel()
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for f in syntheticRun(count: 50, seed: 7) { writer.append(f, profiler.record(f), model: model, events: model.events) }
        #expect(try pollUntil(timeout: 20) { try readFramesCSV(path).rows.count == 350 })
        // flushNow writes at once, whatever the timer does.
        writer.append(makeTiming(frame: 999), profiler.record(makeTiming()), model: model, events: model.events)
        writer.flushNow()
        #expect(try readFramesCSV(path).rows.count == 351)
    }

    @Test func traceJSONIsAChromeTraceWithNestedSlices() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let frames = syntheticRun(count: 400)
        let (profiler, _) = try Self.run(frames, into: dir)
        let trace = try Self.json(dir + "/trace.json")
        #expect(trace["displayTimeUnit"] as? String == "ms")
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let metadata = events.filter { $0["ph"] as? String == "M" }
        #expect(Set(metadata.compactMap { $0["name"] as? String }) == ["process_name", "thread_name"])

        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == 400 * 5)
        func ns(_ v: Any?) -> Int64 { Int64(((v as? Double ?? .nan) * 1000).rounded()) }
        var parent: (start: Int64, end: Int64)?
        var previousEnd: Int64 = -1
        var frameCount = 0
        for e in slices {
            for key in ["name", "ts", "dur", "pid", "tid"] { #expect(e[key] != nil, "X event without \(key)") }
            let start = ns(e["ts"]), end = start + ns(e["dur"])
            #expect(ns(e["dur"]) >= 0)
            if e["name"] as? String == "frame" {
                #expect(start >= previousEnd, "frames overlap")
                parent = (start, end)
                previousEnd = end
                frameCount += 1
            } else {
                let p = try #require(parent)
                #expect(start >= p.start && end <= p.end, "\(e["name"] ?? "?") outside its frame")
                #expect(["input", "update", "render", "present"].contains(e["name"] as? String))
            }
        }
        #expect(frameCount == 400)
        // Counters and jank markers.
        let counters = events.filter { $0["ph"] as? String == "C" }
        #expect(counters.filter { $0["name"] as? String == "interval_ms" }.count == 400)
        #expect(counters.filter { $0["name"] as? String == "latency_ms" }.count == frames.filter { $0.latency != nil }.count)
        for c in counters { #expect(c["args"] is [String: Double]) }
        let instants = events.filter { $0["ph"] as? String == "i" }
        #expect(instants.count == profiler.overall.jankyFrames)
        #expect(instants.allSatisfy { $0["s"] as? String == "t" && $0["tid"] != nil })
        // The first frame's input slice starts at ts 0 with the frame.
        let first = try #require(slices.first)
        #expect(first["ts"] as? Double == 0)
    }

    @Test func traceJSONKeepsOnlyTheLastFramesOfTheRing() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let (_, writer) = try Self.run(syntheticRun(count: 2_500), into: dir, traceCapacity: 1_000)
        #expect(writer.traceFramesKept == 1_000)
        let events = try #require(try Self.json(dir + "/trace.json")["traceEvents"] as? [[String: Any]])
        let frameSlices = events.filter { $0["name"] as? String == "frame" }
        #expect(frameSlices.count == 1_000)
        let numbers = frameSlices.compactMap { ($0["args"] as? [String: Any])?["frame"] as? Int }
        #expect(numbers == Array(1_500..<2_500))
        let summary = try Self.json(dir + "/summary.json")
        #expect(summary["trace_frames_kept"] as? Int == 1_000)
        #expect(summary["frames"] as? Int == 2_500)
    }

    @Test func svgShowsIntervalCPUBudgetAndStates() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        try Self.run(syntheticRun(count: 3_000), into: dir, buckets: 100)
        let svg = try String(contentsOfFile: dir + "/frames.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.hasSuffix("</svg>\n"))
        for id in ["id=\"interval\"", "id=\"cpu\"", "id=\"budget\"", "id=\"interval-range\"", "id=\"states\""] {
            #expect(svg.contains(id), "\(id)")
        }
        for state in UIState.allCases { #expect(svg.contains("<title>\(state.rawValue)</title>")) }
        #expect(svg.contains("run time (s)") && svg.contains("frame time (ms)"))
        #expect(svg.contains("budget 16.67 ms"))
        // The title names the mode and script, the line under it the window and drivers.
        #expect(svg.contains("replay of Assets/gestures/pull.txt at 60 fps"))
        #expect(svg.contains("window 480x800 pt (960x1600 px), video dummy, renderer software"))
        // The key numbers in the header; vsync as the intervals show it, not as asked.
        let numbers = try #require(svg.components(separatedBy: "id=\"chart-numbers\"").last?.components(separatedBy: "</text>").first)
        #expect(numbers.contains("3000 frames · interval p50 ") && numbers.contains(" janky · idle "), "\(numbers)")
        #expect(svg.contains("measured: median interval"))
        // Janky frames are marked, each mark naming how many and when.
        let janky = try #require(svg.components(separatedBy: "<g id=\"janky\"").last?.components(separatedBy: "</g>").first)
        #expect(janky.contains("janky at "))
        // The budget's label is in the right margin, beyond the last data point (x 884).
        let label = try #require(svg.components(separatedBy: "id=\"budget-label\" x=\"").last?.split(separator: "\"").first)
        #expect(Double(label)! > 884)
        #expect(svg.contains("id=\"cpu-label\""))
        // The budget line is drawn after (above) every series.
        let budget = try #require(svg.range(of: "id=\"budget\""))
        for id in ["id=\"interval\"", "id=\"cpu\"", "id=\"interval-range\""] {
            #expect(try #require(svg.range(of: id)).lowerBound < budget.lowerBound, "\(id)")
        }
        // It is well-formed XML.
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "frames.svg is not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
    }

    /// A replay's intervals are all one period (its clock is virtual): the chart gives its
    /// main panel to each frame's time by phase, stacked in the HUD's colours, and says
    /// that the intervals are fixed, instead of a flat interval line.
    @Test func aReplaysChartShowsThePhasesAndSaysTheIntervalsAreFixed() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let frames = (0..<600).map { i in
            makeTiming(frame: i, start: 100 + Double(i) / 60, input: 0.0002, update: 0.0005,
                       render: i % 100 == 0 ? 0.006 : 0.001, present: 0.0003, interval: 1.0 / 60)
        }
        try Self.run(frames, into: dir, buckets: 100)
        let svg = try String(contentsOfFile: dir + "/frames.svg", encoding: .utf8)
        for phase in HUDLayout.phases {
            let group = try #require(svg.components(separatedBy: "<g id=\"phase-\(phase.phase.rawValue)\"").last?
                .components(separatedBy: "</g>").first, "\(phase.phase)")
            #expect(group.contains(FrameChartSVG.hex(phase.rgb)) && group.contains("<polygon"), "\(phase.phase)")
        }
        #expect(svg.contains("intervals fixed at 16.67 ms") && svg.contains("time by phase (ms)"))
        #expect(!svg.contains("<g id=\"interval\"") && !svg.contains("id=\"interval-range\""))
        // The panel's scale is the phases' (8 ms at most here), not two budgets.
        let top = try #require(svg.components(separatedBy: "y: time per frame by phase 0…").last?.split(separator: " ").first)
        #expect(Double(top)! <= 10, "the phase panel goes to \(top) ms")
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
    }

    @Test func svgTimeAxisIsTheRunsClockWithIdleGapsLeftOpen() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(mode: "live"))
        var model = makeModel()
        var now = 0.0
        // 2 s of frames, 6 s asleep (no frames), 2 s of frames: the run ends at 10 s,
        // though its intervals add up to 4 s.
        for i in 0..<240 {
            now += 1.0 / 60
            if i == 120 { now += 6 }
            model.advance(to: now)
            let t = makeTiming(frame: i, interval: 1.0 / 60)
            writer.append(t, profiler.record(t), model: model, events: model.events)
        }
        try writer.finish(profiler: profiler)
        let svg = try String(contentsOfFile: dir + "/frames.svg", encoding: .utf8)
        // The time axis reaches 10 s.
        #expect(svg.contains(">10</text>"), "the axis does not reach the run's 10 s")
        // The interval line is two pieces, one each side of the gap, and the gap is in the legend.
        let intervalGroup = try #require(svg.components(separatedBy: "<g id=\"interval\"").last?.components(separatedBy: "</g>").first)
        #expect(intervalGroup.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(svg.contains("gap: nothing drawn"))
    }

    @Test func aDirectoryThatHoldsARunIsRefused() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        try Self.run(syntheticRun(count: 10), into: dir)
        let before = try String(contentsOfFile: dir + "/frames.csv", encoding: .utf8)
        do {
            _ = try ReportWriter(directory: dir, metadata: sampleReportMetadata())
            Issue.record("a second run was allowed into \(dir)")
        } catch {
            #expect(error.description.contains(ReportWriterError.shown(dir)))
            #expect(error.description.contains("already holds a report"))
            #expect(error.description.contains("pass an empty or new directory"))
        }
        #expect(try String(contentsOfFile: dir + "/frames.csv", encoding: .utf8) == before)

        // A killed run (frames.csv only) is refused as well.
        let killed = reportScratchDirectory("killed")
        defer { removeReportScratch(killed) }
        try Self.run(syntheticRun(count: 10), into: killed, finish: false)
        #expect(throws: ReportWriterError.self) { try ReportWriter(directory: killed, metadata: sampleReportMetadata()) }

        // An empty existing directory is fine.
        let empty = reportScratchDirectory("empty")
        defer { removeReportScratch(empty) }
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Self.run(syntheticRun(count: 10), into: empty)
        #expect(FileManager.default.fileExists(atPath: empty + "/summary.json"))
    }

    @Test func anUnwritablePathFailsAtInit() throws {
        let base = reportScratchDirectory()
        defer { removeReportScratch(base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let file = base + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        // Below a regular file nothing can be created, even as root.
        do {
            _ = try ReportWriter(directory: file + "/report", metadata: sampleReportMetadata())
            Issue.record("a report under a file was accepted")
        } catch {
            // The path whole, as messages show it.
            #expect(error.description == "cannot create the report directory \(file)/report: Not a directory; pass a writable new or empty directory")
        }
        #expect(throws: ReportWriterError.self) { try ReportWriter(directory: file, metadata: sampleReportMetadata()) }
        if getuid() != 0 {
            let locked = base + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o500])
            defer { chmod(locked, 0o700) }
            #expect(throws: ReportWriterError.self) { try ReportWriter(directory: locked, metadata: sampleReportMetadata()) }
        }
    }

    @Test func finishIsIdempotentAndAppendAfterItIsIgnored() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let (profiler, writer) = try Self.run(syntheticRun(count: 20), into: dir)
        let summary = try String(contentsOfFile: dir + "/summary.json", encoding: .utf8)
        writer.append(makeTiming(frame: 99), FrameVerdict(timing: makeTiming(), refreshPeriod: 1.0 / 60), model: makeModel(), events: [])
        try writer.finish(profiler: profiler)
        #expect(try String(contentsOfFile: dir + "/summary.json", encoding: .utf8) == summary)
        #expect(try readFramesCSV(dir + "/frames.csv").rows.count == 20)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == Set(ReportWriter.runFiles))
    }

    @Test func aRunWithNoFramesStillMakesAValidReport() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        try Self.run([], into: dir)
        #expect(try readFramesCSV(dir + "/frames.csv").rows.isEmpty)
        let events = try #require(try Self.json(dir + "/trace.json")["traceEvents"] as? [[String: Any]])
        #expect(events.allSatisfy { $0["ph"] as? String == "M" })
        let summary = try ReportSummary.load(directory: dir)
        #expect(summary.overall.frames == 0)
        #expect(summary.overall.intervalMs == nil && summary.overall.avgFPS == nil)
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: dir + "/frames.svg")))
        #expect(parser.parse())
    }

    @Test func theSummaryStatesTheBudgetTheVerdictsUsed() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(refreshPeriodMs: 99))
        try writer.finish(profiler: FrameProfiler(refreshPeriod: 1.0 / 144))
        let summary = try ReportSummary.load(directory: dir)
        #expect(abs(summary.metadata.refreshPeriodMs - 1000.0 / 144) < 1e-9)
    }

    @Test func writerStructuresStayTheSameSizeOverALongRun() throws {
        let dir = reportScratchDirectory()
        defer { removeReportScratch(dir) }
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        let writer = try ReportWriter(directory: dir, metadata: sampleReportMetadata(), traceCapacity: 500, timelineBuckets: 64)
        let model = makeModel()
        var t = makeTiming(state: .momentum)
        var sizes: [[Int]] = []
        for i in 0..<60_000 {
            t.frame = i
            t.frameStart += 1.0 / 60
            writer.append(t, profiler.record(t), model: model, events: model.events)
            if i % 10_000 == 9_999 {
                sizes.append([writer.traceCapacity, writer.traceFramesKept, writer.timelineCapacity, profiler.hudCapacity])
                #expect(writer.timelineBucketCount <= 64)
            }
        }
        #expect(Set(sizes.map { $0.description }).count == 1, "\(sizes)")
        #expect(sizes.first == [500, 500, 64, 120])
        #expect(writer.droppedRows == 0)
        try writer.finish(profiler: profiler)
        #expect(try readFramesCSV(dir + "/frames.csv").rows.count == 60_000)
    }
}
