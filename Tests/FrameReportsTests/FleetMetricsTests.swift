import Foundation
import Testing
@testable import FrameReports
import OverscrollKit

/// `--metrics`: Prometheus text exposition for node_exporter's textfile collector.
@Suite struct FleetMetricsTests {
    /// 100 frames at 60 Hz: every tenth two periods apart (one vsync missed), CPU 2 ms.
    func sample() -> FleetMetrics {
        var m = FleetMetrics(refreshPeriod: 1.0 / 60)
        for i in 0..<100 { m.record(interval: i % 10 == 0 ? 2.0 / 60 : 1.0 / 60, cpu: 0.002) }
        m.refreshesOK = 4
        m.refreshesTimedOut = 1
        m.rows = 112
        m.startTime = 1_700_000_000.5
        m.version = "1.2.3"
        return m
    }

    @Test func framesAreHistogramsWithBucketsAroundTheBudget() throws {
        let text = sample().exposition
        let lines = text.split(separator: "\n")
        func value(_ sample: String) -> Double? {
            lines.first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect(value("overscroll_build_info{version=\"1.2.3\"}") == 1)
        #expect(value("overscroll_frames_total") == 100)
        #expect(value("overscroll_janky_frames_total") == 10)
        #expect(text.contains("# TYPE overscroll_frame_interval_seconds histogram\n"))
        #expect(text.contains("# TYPE overscroll_frame_cpu_seconds histogram\n"))
        // On time (up to 1.5 periods, 25 ms): 90; one missed (up to 2.5, 41.67 ms): all 100.
        #expect(value("overscroll_frame_interval_seconds_bucket{le=\"0.008333\"}") == 0)
        #expect(value("overscroll_frame_interval_seconds_bucket{le=\"0.025\"}") == 90)
        #expect(value("overscroll_frame_interval_seconds_bucket{le=\"0.04167\"}") == 100)
        #expect(value("overscroll_frame_interval_seconds_bucket{le=\"+Inf\"}") == 100)
        #expect(value("overscroll_frame_interval_seconds_count") == 100)
        #expect(abs((value("overscroll_frame_interval_seconds_sum") ?? 0) - (90.0 / 60 + 20.0 / 60)) < 1e-9)
        // 2 ms of a 16.67 ms budget: above 10 % (1.667 ms), within 25 % (4.167 ms).
        #expect(value("overscroll_frame_cpu_seconds_bucket{le=\"0.001667\"}") == 0)
        #expect(value("overscroll_frame_cpu_seconds_bucket{le=\"0.004167\"}") == 100)
        #expect(value("overscroll_frame_cpu_seconds_sum") == 0.2)
        #expect(value("overscroll_refresh_total{result=\"ok\"}") == 4)
        #expect(value("overscroll_refresh_total{result=\"timeout\"}") == 1)
        #expect(value("overscroll_refresh_total{result=\"failed\"}") == 0)
        #expect(value("overscroll_rows") == 112)
        #expect(value("overscroll_start_time_seconds") == 1_700_000_000.5)
        // Buckets are cumulative, ending with +Inf equal to the count.
        let buckets = lines.filter { $0.hasPrefix("overscroll_frame_cpu_seconds_bucket") }.map { Double($0.split(separator: " ")[1])! }
        #expect(buckets == buckets.sorted() && buckets.count == 10)
        // Every sample's metric was introduced by HELP and TYPE before it.
        var declared: Set<Substring> = []
        for line in lines {
            if line.hasPrefix("# TYPE ") { declared.insert(line.split(separator: " ")[2]) }
            if line.hasPrefix("#") { continue }
            let name = line.prefix { $0 != "{" && $0 != " " }
            let base = ["_sum", "_count", "_bucket"].reduce(name) { $0.hasSuffix($1) ? $0.dropLast($1.count) : $0 }
            #expect(declared.contains(base), "\(line)")
        }
    }

    @Test func valuesPrintWithoutFloatNoise() {
        // 0.000385 as a sum of seconds arrives as 0.00038500000000000003.
        #expect(FleetMetrics.number(0.0001 + 0.000285) == "0.000385")
        #expect(FleetMetrics.number(0.1 + 0.2) == "0.3")
        #expect(FleetMetrics.number(1_700_000_000.123456) == "1700000000.123456")
        #expect(FleetMetrics.number(42) == "42")
        #expect(FleetMetrics.number(1e-12) == "0")
        #expect(FleetMetrics.number(.infinity) == "+Inf")
        var m = FleetMetrics()
        for _ in 0..<1000 { m.record(interval: 1.0 / 60, cpu: 0.000385) }
        let cpuSum = m.exposition.split(separator: "\n").first { $0.hasPrefix("overscroll_frame_cpu_seconds_sum ") }
        #expect(cpuSum == "overscroll_frame_cpu_seconds_sum 0.385")
        // No value anywhere runs to more than nine decimals.
        for line in m.exposition.split(separator: "\n") where !line.hasPrefix("#") {
            let number = line.split(separator: " ").last!
            #expect((number.split(separator: ".").dropFirst().first?.count ?? 0) <= 9, "\(line)")
        }
    }

    @Test func promtoolAcceptsTheExposition() throws {
        let promtool = try #require(["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "promtool is needed: script/bootstrap --test installs prometheus")
        let check = Process()
        check.executableURL = URL(fileURLWithPath: promtool)
        check.arguments = ["check", "metrics"]
        let input = Pipe(), out = Pipe()
        check.standardInput = input
        check.standardOutput = out
        check.standardError = out
        try check.run()
        input.fileHandleForWriting.write(Data(sample().exposition.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0 && said.isEmpty, "\(said)")
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

    @Test func touchToScanoutIsAHistogramInRefreshPeriods() throws {
        var m = FleetMetrics(refreshPeriod: 1.0 / 60)
        // 20 ms (1.2 periods) three times, 40 ms (2.4 periods) once.
        for s in [0.020, 0.020, 0.020, 0.040] { m.recordTouchToScanout(s) }
        let lines = m.exposition.split(separator: "\n")
        func value(_ sample: String) -> Double? {
            lines.first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect(m.exposition.contains("# TYPE overscroll_touch_to_scanout_seconds histogram\n"))
        #expect(value("overscroll_touch_to_scanout_seconds_bucket{le=\"0.01667\"}") == 0)
        #expect(value("overscroll_touch_to_scanout_seconds_bucket{le=\"0.025\"}") == 3)
        #expect(value("overscroll_touch_to_scanout_seconds_bucket{le=\"0.04167\"}") == 4)
        #expect(value("overscroll_touch_to_scanout_seconds_count") == 4)
        // A snapshot taken in place carries it.
        var copy = FleetMetrics(refreshPeriod: 1.0 / 60)
        copy.assign(m)
        #expect(copy.exposition == m.exposition)
    }
}
