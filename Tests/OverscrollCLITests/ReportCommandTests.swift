import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ReportCommandTests {
    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aHeadlessReplaySaysItDrewOnTheCPUAndWhy() throws {
        let dir = CLI.temporaryPath("path-report")
        let r = try CLI.run(["replay", "Assets/gestures/pull-release.txt", "--report", dir, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("drawing on the cpu path"), "\(r.stderr)")
        #expect(r.stderr.contains("frames' cpu_ms add up to"), "\(r.stderr)")
        let metadata = try #require(try json("\(dir)/summary.json")["metadata"] as? [String: Any])
        #expect(metadata["render_path"] as? String == "cpu")
        #expect((metadata["render_path_reason"] as? String)?.isEmpty == false)
    }

    @Test func aReplayWritesACompleteReport() throws {
        let dir = CLI.temporaryPath("report")
        let r = try CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt", "--report", dir])
        #expect(r.status == 0, "\(r.stderr)")
        for file in ["frames.csv", "summary.json", "trace.json", "frames.svg"] {
            #expect(FileManager.default.fileExists(atPath: "\(dir)/\(file)"), "\(file) missing")
        }
        let summary = try json("\(dir)/summary.json")
        for metric in ["interval_ms", "cpu_ms", "latency_ms"] {
            let m = try #require(summary[metric] as? [String: Any], "\(metric)")
            for key in ["min", "p50", "p90", "p95", "p99", "p99.9", "max"] { #expect(m[key] is Double, "\(metric).\(key)") }
        }
        // Replay intervals are on the virtual clock: exactly 1/60 s.
        let interval = try #require(summary["interval_ms"] as? [String: Double])
        #expect(abs(interval["p50"]! - 16.667) < 0.05)
        let header = try String(contentsOfFile: "\(dir)/frames.csv", encoding: .utf8).split(separator: "\n")[0]
        #expect(header.hasPrefix("frame,t_ms,content_offset,velocity,refresh_state,progress,rows,events,scrollbar,highlight,selected,interval_ms,cpu_ms,input_ms,update_ms,render_ms,present_ms,latency_ms,touch_to_scanout_ms,missed_vsyncs,janky"))
        let trace = try json("\(dir)/trace.json")
        #expect((trace["traceEvents"] as? [Any])?.isEmpty == false)
        // `report DIR` prints it.
        let shown = try CLI.run(["report", dir])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("p99") && shown.stdout.contains("replay"))
    }

    @Test func aDirectoryHoldingARunIsNotMixedWithANewOne() throws {
        let dir = CLI.temporaryPath("twice")
        #expect(try CLI.run(["replay", "Assets/gestures/drag.txt", "--report", dir]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/frames.csv"))
        let again = try CLI.run(["replay", "Assets/gestures/drag.txt", "--report", dir])
        #expect(again.status == 73)
        #expect(again.stderr.contains(dir) && again.stderr.contains("already holds a report"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/frames.csv")) == before)
    }

    @Test func anUnwritableReportPathFailsAtStart() throws {
        let r = try CLI.run(["replay", "Assets/gestures/benchmark.txt", "--report", "/proc/overscroll-report"])
        #expect(r.status == 73)
        #expect(r.stderr.contains("/proc/overscroll-report"))
    }

    @Test func theLiveProgramChecksTheReportPathBeforeItsDisplay() throws {
        let noDisplay = ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""]
        // The window's report is a diagnostic (issue 52): a warning first, then the display's 69.
        let bad = try CLI.run(["--no-sound", "--report", "/proc/overscroll-report"], environment: noDisplay)
        #expect(bad.status == 69, "\(bad.stderr)")
        let lines = bad.stderr.split(separator: "\n")
        #expect(lines.first?.contains("warning: no frame-timing report this run: cannot create the report directory /proc/overscroll-report") == true, "\(bad.stderr)")
        // A run that could not start leaves its directory reusable.
        let dir = CLI.temporaryPath("unused")
        #expect(try CLI.run(["--no-sound", "--report", dir], environment: noDisplay).status == 69)
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir)).isEmpty)
    }

    @Test func compareFlagsRegressionsWithItsExitStatus() throws {
        let base = CLI.temporaryPath("base"), same = CLI.temporaryPath("same")
        #expect(try CLI.run(["replay", "Assets/gestures/fling.txt", "--report", base]).status == 0)
        #expect(try CLI.run(["replay", "Assets/gestures/fling.txt", "--report", same]).status == 0)
        // Same script, virtual clock: intervals and latency identical; CPU is real and noisy,
        // so allow it a wide tolerance.
        let ok = try CLI.run(["report", base, same, "--tolerance", "1000"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        // A run at 30 fps has twice the frame interval (+100 %): a regression at 50 %.
        let slow = CLI.temporaryPath("slow")
        #expect(try CLI.run(["replay", "Assets/gestures/fling.txt", "--fps", "30", "--report", slow]).status == 0)
        let bad = try CLI.run(["report", base, slow, "--tolerance", "50"])
        #expect(bad.status == 1, "\(bad.stdout)")
        #expect(bad.stdout.contains("interval"))
    }

    @Test func reportOnSomethingThatIsNotAReportSaysSo() throws {
        let r = try CLI.run(["report", CLI.packageRoot + "/Assets"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("Assets") && r.stderr.split(separator: "\n").count == 1)
    }

    @Test func aLiveRunStoppedBySigtermLeavesACompleteReport() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let dir = CLI.temporaryPath("live")
        let app = try LiveApp(["--no-sound", "--report", dir], on: server)
        let window = try #require(try server.window(named: "Overscroll"))
        // Drag so frames are drawn and input latency is measured.
        try server.tool("xdotool", ["mousemove", "--window", window, "240", "600", "mousedown", "1"])
        for y in stride(from: 590, through: 200, by: -15) {
            try server.tool("xdotool", ["mousemove", "--window", window, "240", "\(y)"])
        }
        try server.tool("xdotool", ["mouseup", "1"])
        Thread.sleep(forTimeInterval: 1.5)
        // Rows stream to disk while it runs.
        let streamed = (try? String(contentsOfFile: "\(dir)/frames.csv", encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(streamed > 10)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 3) == 0)
        let summary = try json("\(dir)/summary.json")
        let counts = summary["frames"] as? Int ?? (summary["counts"] as? [String: Any])?["frames"] as? Int ?? 0
        #expect(counts > 10, "\(summary.keys)")
        let latency = try #require(summary["latency_ms"] as? [String: Double])
        #expect(latency["p50"]! > 0 && latency["p50"]! < 100)
        #expect(FileManager.default.fileExists(atPath: "\(dir)/trace.json"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/frames.svg"))
    }
}
