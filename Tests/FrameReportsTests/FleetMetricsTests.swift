import Foundation
import Testing
@testable import FrameReports
import OverscrollKit
import ProfilerTestSupport

/// `--metrics`: Prometheus text exposition for node_exporter's textfile collector.
@Suite struct FleetMetricsTests {
    @Test func everyMetricHasHelpTypeAndBaseUnits() throws {
        var profiler = FrameProfiler(refreshPeriod: 1.0 / 60)
        for i in 0..<100 {
            // Every tenth frame takes two refresh periods: janky.
            var t = FrameTiming(frame: i, frameStart: 0, inputDone: 0, updateDone: 0, renderDone: 0, presentStart: 0,
                                presentDone: 0, interval: i % 10 == 0 ? 2.0 / 60 : 1.0 / 60, latency: nil, state: .idle,
                                processCPUTime: 0.002)
            t.frame = i
            profiler.record(t)
        }
        var m = FleetMetrics()
        m.update(from: profiler)
        m.refreshesOK = 4
        m.refreshesTimedOut = 1
        m.rows = 112
        m.startTime = 1_700_000_000.5
        let text = m.exposition
        let lines = text.split(separator: "\n")
        func value(_ sample: String) -> Double? {
            lines.first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect(value("overscroll_frames_total") == 100)
        #expect(value("overscroll_janky_frames_total") == 10)
        #expect(abs((value("overscroll_frame_interval_seconds{quantile=\"0.5\"}") ?? 0) - 1.0 / 60) < 1e-4)
        #expect(abs((value("overscroll_frame_interval_seconds{quantile=\"0.99\"}") ?? 0) - 2.0 / 60) < 1e-4)
        #expect(abs((value("overscroll_frame_cpu_seconds{quantile=\"0.9\"}") ?? 0) - 0.002) < 1e-5)
        #expect(value("overscroll_frame_interval_seconds_count") == 100)
        #expect(value("overscroll_refresh_total{result=\"ok\"}") == 4)
        #expect(value("overscroll_refresh_total{result=\"timeout\"}") == 1)
        #expect(value("overscroll_refresh_total{result=\"failed\"}") == 0)
        #expect(value("overscroll_rows") == 112)
        #expect(value("overscroll_start_time_seconds") == 1_700_000_000.5)
        // Every sample's metric was introduced by HELP and TYPE before it.
        var declared: Set<Substring> = []
        for line in lines {
            if line.hasPrefix("# TYPE ") { declared.insert(line.split(separator: " ")[2]) }
            if line.hasPrefix("#") { continue }
            let name = line.prefix { $0 != "{" && $0 != " " }
            let base = ["_sum", "_count"].reduce(name) { $0.hasSuffix($1) ? $0.dropLast($1.count) : $0 }
            #expect(declared.contains(base), "\(line)")
        }
    }

    @Test func theFileIsReplacedWholeAndAWriteErrorIsReported() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var m = FleetMetrics()
        m.rows = 1
        try m.write(to: dir + "/o.prom")
        m.rows = 2
        try m.write(to: dir + "/o.prom")
        #expect(try String(contentsOfFile: dir + "/o.prom", encoding: .utf8).contains("overscroll_rows 2\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["o.prom"])
        #expect(throws: ReportWriterError.self) { try m.write(to: dir + "/missing/o.prom") }
    }
}
