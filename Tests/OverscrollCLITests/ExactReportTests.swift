import Foundation
import Testing

/// What a report says is exactly what happened: its settings, its orderings, its time axis.
@Suite struct ExactReportTests {
    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// min ≤ p50 ≤ p90 ≤ p95 ≤ p99 ≤ p99.9 ≤ max and min ≤ mean ≤ max, for every metric of
    /// the whole run and of each UI state.
    static func expectOrdered(_ summary: [String: Any], _ context: String) throws {
        var groups: [(String, [String: Any])] = [("overall", summary)]
        for (state, group) in try #require(summary["states"] as? [String: [String: Any]]) { groups.append((state, group)) }
        var checked = 0
        for (name, group) in groups {
            for metric in ["interval_ms", "cpu_ms", "latency_ms"] {
                guard let m = group[metric] as? [String: Double] else { continue }
                let ordered = try ["min", "p50", "p90", "p95", "p99", "p99.9", "max"].map { try #require(m[$0]) }
                #expect(ordered == ordered.sorted(), "\(context) \(name) \(metric): \(ordered)")
                let mean = try #require(m["mean"])
                #expect(ordered.first! <= mean && mean <= ordered.last!, "\(context) \(name) \(metric): mean \(mean) of \(ordered)")
                checked += 1
            }
        }
        #expect(checked >= 3)
    }

    /// frames.svg's x range, from its description.
    static func svgTimeRange(_ path: String) throws -> (Double, Double) {
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        let desc = try #require(svg.range(of: #"x: run time [0-9.]+…[0-9.]+ s"#, options: .regularExpression).map { svg[$0] })
        let numbers = desc.dropFirst("x: run time ".count).dropLast(2).components(separatedBy: "…").compactMap(Double.init)
        try #require(numbers.count == 2)
        return (numbers[0], numbers[1])
    }

    static func firstTime(_ csvPath: String) throws -> Double {
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
        let column = try #require(lines[0].split(separator: ",").firstIndex(of: "t_ms"))
        return try #require(Double(lines[1].split(separator: ",", omittingEmptySubsequences: false)[column])) / 1000
    }

    static func lastTime(_ csvPath: String) throws -> Double {
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
        let column = try #require(lines[0].split(separator: ",").firstIndex(of: "t_ms"))
        let cells = lines.last!.split(separator: ",", omittingEmptySubsequences: false)
        return try #require(Double(cells[column])) / 1000
    }

    @Test func aConfigsSizeAndReportMakeTheReplayAndItsSummaryIsOrdered() throws {
        let dir = CLI.temporaryPath("sized")
        let config = try CLI.write("size = \"300x500\"\nreport = \"\(dir)\"\n", to: "sized.toml")
        let r = try CLI.run(["replay", "Assets/gestures/benchmark.txt", "--config", config, "--no-sound"])
        #expect(r.status == 0, "\(r.stderr)")
        // `report` in a config is a base folder: the run is its one numbered subfolder.
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir)
        try #require(runs.count == 1 && runs[0].hasPrefix("000001-"), "\(runs)")
        let run = dir + "/" + runs[0]
        let summary = try Self.json(run + "/summary.json")
        let metadata = try #require(summary["metadata"] as? [String: Any])
        let points = try #require(metadata["window_points"] as? [String: Int])
        #expect(points == ["width": 300, "height": 500])
        try Self.expectOrdered(summary, "replay")
        // The chart's time axis is the run's clock: it ends at the last frame's t_ms.
        let (start, end) = try Self.svgTimeRange(run + "/frames.svg")
        #expect(start == 0)
        #expect(abs(end - (try Self.lastTime(run + "/frames.csv"))) < 0.002)
    }

    @Test func replayWindowWithoutADisplayExits69() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["replay", "Assets/gestures/drag.txt", "--window", "--no-sound"]
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"] { env.removeValue(forKey: key) }
        env["SDL_AUDIODRIVER"] = "dummy"
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 69, "\(message)")
        #expect(message.contains("no display"))
    }

    @Test func aLiveRunWithIdleGapsHasAnOrderedSummaryAndAChartOnItsOwnClock() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let dir = CLI.temporaryPath("live-gaps")
        let app = try LiveApp(["--no-sound", "--report", dir], on: server)
        let window = try #require(try server.window(named: "Overscroll"))
        // Two drags with the program asleep (nothing moving, nothing drawn) in between.
        for round in 0..<2 {
            try server.tool("xdotool", ["mousemove", "--window", window, "240", "600", "mousedown", "1"])
            for y in stride(from: 590, through: 250, by: -20) {
                try server.tool("xdotool", ["mousemove", "--window", window, "240", "\(y)"])
            }
            // Held still before letting go: no fling, so the list rests at once.
            Thread.sleep(forTimeInterval: 0.3)
            try server.tool("xdotool", ["mouseup", "1"])
            if round == 0 { Thread.sleep(forTimeInterval: 3) }
        }
        Thread.sleep(forTimeInterval: 1)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        let summary = try Self.json(dir + "/summary.json")
        try Self.expectOrdered(summary, "live")
        // The chart keeps the sleep: it ends at the last frame's t_ms, and the interval line
        // is broken by at least one gap. The duration is the run's wall time: the frames'
        // intervals, the 3 s asleep between the drags (counted as idle, not as intervals)
        // and the still end before SIGTERM (the scroll bar fades for most of that second).
        let (_, end) = try Self.svgTimeRange(dir + "/frames.svg")
        let duration = try #require(summary["duration_s"] as? Double)
        #expect(abs(end - (try Self.lastTime(dir + "/frames.csv"))) < 0.002)
        // From the first frame (t_ms counts from SDL's start) to the last, within 5 %, and the
        // still end after it.
        let first = try Self.firstTime(dir + "/frames.csv")
        #expect(duration > (end - first) * 0.95 && duration < end - first + 1.5, "frames \(first)-\(end) s, duration \(duration) s")
        let svg = try String(contentsOfFile: dir + "/frames.svg", encoding: .utf8)
        let interval = try #require(svg.components(separatedBy: "<g id=\"interval\"").last?.components(separatedBy: "</g>").first)
        #expect(interval.components(separatedBy: "<polyline").count - 1 >= 2)
    }
}
