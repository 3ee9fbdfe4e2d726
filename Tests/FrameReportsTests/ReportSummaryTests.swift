import Foundation
import Testing
@testable import FrameReports
@testable import OverscrollKit
import TestSupport

@Suite struct ReportSummaryTests {
    /// A finished report of `frames`, in a fresh directory.
    static func report(_ frames: [FrameTiming], _ name: String = #function) throws -> String {
        let dir = reportScratchDirectory(name)
        try ReportWriterTests.run(frames, into: dir)
        return dir
    }

    @Test func loadReadsBackWhatFinishWrote() throws {
        let dir = try Self.report(syntheticRun(count: 1_000))
        defer { removeReportScratch(dir) }
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for f in syntheticRun(count: 1_000) { profiler.record(f) }
        var expected = ReportSummary(metadata: sampleReportMetadata(), profiler: profiler, traceFramesKept: 1_000)
        let loaded = try ReportSummary.load(directory: dir)
        // The start is told at the end on the wall clock as it is then (a clock step since
        // the start is followed): this run's own start (within the minute before), not the fixture's.
        let startedAround = (-60...0).map { ReportMetadata.timestamp(WallTime.system.now() + Double($0)).prefix(19) }
        #expect(startedAround.contains(loaded.metadata.startTime.prefix(19)), "\(loaded.metadata.startTime)")
        expected.metadata.startTime = loaded.metadata.startTime
        #expect(loaded == expected)
        #expect(loaded.state(.dragging)?.frames == profiler.statistics(for: .dragging).frames)
        // The definitions say how percentiles are made: nearest rank, to the histogram's resolution, within [min, max].
        #expect(loaded.definitions["percentiles"]?.contains("nearest-rank") == true)
        #expect(loaded.definitions["percentiles"]?.contains("clamped to [min, max]") == true)
        // frames.csv's two state columns, each defined.
        #expect(loaded.definitions["refresh_state"]?.contains("pull-to-refresh") == true)
        #expect(loaded.definitions["ui_state"]?.contains("per-state") == true)
    }

    @Test func emptyStatesAndNoLatencyAreWrittenAsNull() throws {
        let dir = try Self.report((0..<10).map { makeTiming(frame: $0, state: .idle) })
        defer { removeReportScratch(dir) }
        let text = try String(contentsOfFile: dir + "/summary.json", encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["latency_ms"] is NSNull)
        let states = try #require(json["states"] as? [String: [String: Any]])
        #expect(states["momentum"]?["frames"] as? Int == 0)
        #expect(states["momentum"]?["avg_fps"] is NSNull)
        #expect(states["momentum"]?["interval_ms"] is NSNull)
        let loaded = try ReportSummary.load(directory: dir)
        #expect(loaded.overall.latencyMs == nil)
        #expect(loaded.state(.momentum)?.avgFPS == nil)
    }

    @Test func loadErrorsSayWhatIsWrong() throws {
        let base = reportScratchDirectory()
        defer { removeReportScratch(base) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: base, withIntermediateDirectories: true)

        func loadError(_ dir: String) -> ReportLoadError? {
            do { _ = try ReportSummary.load(directory: dir); return nil } catch { return error }
        }

        // Missing, or not a report.
        let missing = loadError(base + "/nope")
        #expect(missing?.isMissing == true)
        // Paths are echoed whole (issue 52: a cut path named no file).
        #expect(missing?.description == "\(base)/nope is not a report directory: no such directory")
        let empty = loadError(base)
        #expect(empty?.description == "\(base) is not a report directory: it has no summary.json")
        #expect(empty?.isMissing == true)

        // A killed run: frames.csv without summary.json.
        let killed = base + "/killed"
        try ReportWriterTests.run(syntheticRun(count: 5), into: killed, finish: false)
        #expect(loadError(killed)?.description.contains("frames.csv but no summary.json") == true)

        // A newer format.
        let newer = base + "/newer"
        try fm.createDirectory(atPath: newer, withIntermediateDirectories: false)
        try Data(#"{"format_version": 99, "frames": 1}"#.utf8).write(to: URL(fileURLWithPath: newer + "/summary.json"))
        let incompatible = loadError(newer)
        #expect(incompatible == .incompatible(path: newer + "/summary.json", found: 99, supported: ReportSummary.formatVersion))
        #expect(incompatible?.description.contains("made by an incompatible version") == true)
        #expect(incompatible?.isMissing == false)

        // Corrupt JSON, and valid JSON of the wrong shape: both name the file.
        let corrupt = base + "/corrupt"
        try fm.createDirectory(atPath: corrupt, withIntermediateDirectories: false)
        try Data("{\"format_version\": 1, \"frames\": ".utf8).write(to: URL(fileURLWithPath: corrupt + "/summary.json"))
        let bad = loadError(corrupt)
        #expect(bad == .corrupt(path: corrupt + "/summary.json", detail: "not valid JSON"))
        #expect(bad?.description.hasPrefix(corrupt + "/summary.json is corrupt") == true)

        let shape = base + "/shape"
        try fm.createDirectory(atPath: shape, withIntermediateDirectories: false)
        try Data(#"{"format_version": 1, "frames": 3}"#.utf8).write(to: URL(fileURLWithPath: shape + "/summary.json"))
        guard case let .corrupt(path, detail)? = loadError(shape) else {
            Issue.record("a summary with missing keys was accepted")
            return
        }
        #expect(path == shape + "/summary.json")
        #expect(detail.hasPrefix("missing "))
    }

    // MARK: Comparison

    /// A summary whose interval/cpu/latency percentiles are all scaled by `slow`, and whose
    /// janky share and 1% low are given.
    static func summary(slow: Double = 1, janky: Int = 10, low: Double? = 50, latency: Bool = true) -> ReportSummary {
        func metric(_ base: Double) -> MetricPercentiles {
            let v = base * slow
            return MetricPercentiles(count: 1000, min: v / 2, p50: v, p90: v * 1.2, p95: v * 1.3, p99: v * 2,
                                     p99_9: v * 3, max: v * 4, mean: v)
        }
        let overall = GroupSummary(frames: 1000, jankyFrames: janky, missedVsyncs: janky, overBudgetFrames: 0,
                                   durationSeconds: 16.7, intervalMs: metric(16.7), cpuMs: metric(5),
                                   latencyMs: latency ? metric(20) : nil, avgFPS: 59.9, onePercentLowFPS: low)
        return ReportSummary(metadata: sampleReportMetadata(), overall: overall, states: [:],
                             traceFramesKept: 1000, csvRowsDropped: 0, clampedValues: 0)
    }

    @Test func identicalReportsHaveNoRegressions() {
        let c = ReportComparison(base: Self.summary(), new: Self.summary())
        #expect(!c.hasRegressions)
        // Touch to scanout: neither fixture's path sees the scanout, so no figure on either side.
        #expect(c.rows.allSatisfy { $0.changePercent == 0 || $0.name.hasPrefix("touch to scanout") })
        #expect(c.notes.isEmpty)
        let names = Set(c.rows.filter(\.gated).map(\.name))
        #expect(names == ["interval p50", "interval p95", "interval p99", "cpu p50", "cpu p95", "cpu p99",
                          "latency p50", "latency p95", "latency p99", "janky frames", "1% low fps"])
    }

    static func seeing(_ clock: String?, touch: Double?) -> ReportSummary {
        var s = summary()
        s.metadata.scanoutClock = clock
        s.overall.touchToScanoutMs = touch.map { MetricPercentiles(count: 10, min: $0, p50: $0, p90: $0, p95: $0, p99: $0,
                                                                  p99_9: $0, max: $0, mean: $0) }
        return s
    }

    @Test func touchToScanoutGatesOnlyWhereBothPathsSeeTheScanout() {
        let drm = "DRM page-flip event: the vblank's time (CLOCK_MONOTONIC)", x11 = "not known: SDL's window surface says nothing"
        // Both see it: slower is a regression, missing on one side fails as MISSING.
        let worse = ReportComparison(base: Self.seeing(drm, touch: 20), new: Self.seeing(drm, touch: 30))
        #expect(worse.regressions.map(\.name) == ["touch to scanout p50", "touch to scanout p95", "touch to scanout p99"])
        let lost = ReportComparison(base: Self.seeing(drm, touch: 20), new: Self.seeing(drm, touch: nil))
        #expect(lost.fails && lost.missing.map(\.name) == ["touch to scanout p50", "touch to scanout p95", "touch to scanout p99"])
        // One path cannot know: not compared, not failed, and said.
        let blind = ReportComparison(base: Self.seeing(drm, touch: 20), new: Self.seeing(x11, touch: nil))
        #expect(!blind.fails)
        #expect(blind.rows.filter { $0.name.hasPrefix("touch to scanout") }.allSatisfy { !$0.gated })
        #expect(blind.notes.contains { $0.contains("touch to scanout is not compared: NEW's path cannot know") })
    }

    @Test func slowerTimesBeyondTheToleranceAreRegressions() {
        let base = Self.summary()
        #expect(!ReportComparison(base: base, new: Self.summary(slow: 1.09)).hasRegressions)
        let worse = ReportComparison(base: base, new: Self.summary(slow: 1.11))
        #expect(worse.hasRegressions)
        // Every gated time metric, and no informational one.
        #expect(worse.regressions.count == 9)
        #expect(worse.regressions.allSatisfy { $0.gated })
        let p50 = worse.rows.first { $0.name == "interval p50" }!
        #expect(abs(p50.changePercent! - 11) < 1e-9)
        // Tolerance is a parameter: 20 % lets 11 % through.
        #expect(!ReportComparison(base: base, new: Self.summary(slow: 1.11), tolerancePercent: 20).hasRegressions)
        // Faster is never a regression.
        #expect(!ReportComparison(base: base, new: Self.summary(slow: 0.5)).hasRegressions)
    }

    @Test func jankAndOnePercentLowRegressInTheirOwnDirections() {
        let base = Self.summary(janky: 10, low: 50)
        let jankier = ReportComparison(base: base, new: Self.summary(janky: 12, low: 50))
        #expect(jankier.regressions.map(\.name) == ["janky frames"])
        let lower = ReportComparison(base: base, new: Self.summary(janky: 10, low: 44))
        #expect(lower.regressions.map(\.name) == ["1% low fps"])
        #expect(!ReportComparison(base: base, new: Self.summary(janky: 10, low: 46)).hasRegressions)
        #expect(!ReportComparison(base: base, new: Self.summary(janky: 0, low: 120)).hasRegressions)
        // From zero janky frames, any janky frame is a regression (it is +∞ %).
        let fromZero = ReportComparison(base: Self.summary(janky: 0), new: Self.summary(janky: 1))
        #expect(fromZero.regressions.map(\.name) == ["janky frames"])
        #expect(fromZero.rows.first { $0.name == "janky frames" }?.changePercent == .infinity)
    }

    @Test func aMetricMissingOnOneSideIsNotComparedOrFailed() {
        let c = ReportComparison(base: Self.summary(latency: true), new: Self.summary(slow: 1, latency: false))
        let latency = c.rows.filter { $0.name.hasPrefix("latency") }
        #expect(latency.allSatisfy { $0.changePercent == nil && !$0.isRegression })
        #expect(!c.hasRegressions)
    }

    @Test func differentRunConditionsAreNoted() {
        var other = Self.summary()
        other.metadata.refreshPeriodMs = 1000.0 / 144
        other.metadata.fps = 144
        let c = ReportComparison(base: Self.summary(), new: other)
        #expect(c.notes.contains { $0.contains("different frame budgets (16.667 ms vs 6.944 ms)") })
        #expect(c.notes.contains { $0.contains("60 vs 144 fps") })
    }

    // MARK: Text

    @Test func summaryTextHasTheNumbersInAlignedColumns() throws {
        let dir = try Self.report(syntheticRun(count: 2_000))
        defer { removeReportScratch(dir) }
        let summary = try ReportSummary.load(directory: dir)
        let text = ReportText.summary(summary, directory: dir)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let p = try #require(summary.overall.intervalMs)
        let intervalLine = try #require(lines.first { $0.hasPrefix("interval ") })
        #expect(intervalLine.contains(ReportText.ms(p.p99)) && intervalLine.contains(ReportText.ms(p.p50)))
        // Right-aligned columns: the header's "p99" ends where each metric's p99 value ends.
        let header = try #require(lines.first { $0.hasPrefix("ms ") })
        let end = header.range(of: "  p99  ")!.lowerBound.utf16Offset(in: header) + 5
        let value = ReportText.ms(p.p99)
        let valueEnd = intervalLine.range(of: " " + value + " ")!.upperBound.utf16Offset(in: intervalLine) - 1
        #expect(valueEnd == end)
        for state in UIState.allCases { #expect(lines.contains { $0.hasPrefix(state.rawValue + " ") }) }
        #expect(text.contains("replay, 60 fps, Assets/gestures/pull.txt"))
        #expect(text.contains("2000"))
    }

    @Test func comparisonTextMarksRegressions() {
        let c = ReportComparison(base: Self.summary(), new: Self.summary(slow: 1.5))
        let text = ReportText.comparison(c, base: "a", new: "b")
        let p99 = text.split(separator: "\n").first { $0.hasPrefix("interval p99 ") }
        #expect(p99?.contains("+50.0 %") == true)
        #expect(p99?.hasSuffix("REGRESSION") == true)
        #expect(text.contains("9 regressions beyond 10.0 %"))
        let clean = ReportText.comparison(ReportComparison(base: Self.summary(), new: Self.summary()), base: "a", new: "b")
        #expect(!clean.contains("REGRESSION"))
        #expect(clean.contains("no regressions"))
    }
}
