import Foundation
import Testing

/// Issue 31's checks as a user meets them: the built program's replay and its trace.
@Suite struct PublicScreenTests {
    func replay(_ script: String, _ extra: [String] = []) throws -> Trace {
        let path = try CLI.write(script, to: "script.txt")
        let trace = CLI.temporaryPath("trace.csv")
        let result = try CLI.run(["replay", path, "--trace", trace] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try Trace(path: trace)
    }

    func times(_ t: Trace, _ event: String) -> [Double] {
        t.rows.indices.filter { (t.rows[$0]["events"] ?? "").split(separator: ";").contains(Substring(event)) }
            .map { t.double($0, "t_ms") }
    }

    @Test func aFingerWigglingAcrossTheThresholdTicksEachTimeAndFlashesAtMostOnceASecond() throws {
        // Down at y 100, then between y 400 and 250 every 100 ms.
        let wiggle = "down 240 100\n" + String(repeating: "wait 100ms\nmove 240 400\nwait 100ms\nmove 240 250\n", count: 8) + "up\nwait 3s\n"
        let t = try replay(wiggle)
        let feedback = times(t, "feedback"), flashes = times(t, "flash")
        #expect(feedback.count >= 7, "\(feedback)")
        #expect(!flashes.isEmpty && flashes.allSatisfy(feedback.contains))
        // The rule is "at least 1 s apart" (the model's `t - lastFlash >= flashInterval`): the
        // same comparison here, with t_ms printed to the microsecond (half of one either side).
        for (a, b) in zip(flashes, flashes.dropFirst()) { #expect(b - a >= 1000 - 0.001, "flashes at \(a) and \(b) ms") }
        // With --no-flash the same crossings tick and nothing flashes.
        let dark = try replay(wiggle, ["--no-flash"])
        #expect(times(dark, "feedback") == feedback && times(dark, "flash").isEmpty)
    }

    @Test func aPlainPullFlashesOnce() throws {
        let t = try replay(try String(contentsOfFile: CLI.packageRoot + "/Assets/gestures/pull-to-refresh.txt", encoding: .utf8))
        #expect(times(t, "flash").count == 1 && times(t, "flash") == times(t, "feedback"))
    }

    @Test func aSlowTapSelectsItsRow() throws {
        let t = try replay("down 240 400\nwait 450ms\nup\nwait 100ms\n")
        // y 400 at rest is row 7 (56 pt rows).
        #expect(t.rows.last?["selected"] == "7")
        #expect(times(t, "tap").count == 1)
    }
}

/// Points become pixels by the display's density: `--scale`, or the physical size the
/// display reports (here Xvfb -dpi 192, whose RandR output says 0 mm and whose screen
/// says 169x271 mm).
@Suite struct DisplayScaleTests {
    /// The start-up line, once the window is up.
    func startLine(_ app: LiveApp) -> String {
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while !text.contains("started:") && Date() < deadline { text += app.stderr }
        return text.split(separator: "\n").first { $0.contains("started:") }.map(String.init) ?? text
    }

    @Test func a192DpiScreenDrawsTwoPixelsAPointAndTakesTheMouseInPoints() throws {
        let server = try #require(try XServer(width: 1280, height: 2048, dpi: 192))
        let dir = CLI.temporaryPath("scaled")
        let app = try LiveApp(["--no-sound", "--report", dir], on: server)
        let window = try #require(try server.window(named: "Overscroll", timeout: 60), "no window: \(app.stderr)")
        #expect(startLine(app).contains("window 480x800 pt (960x1600 px), scale 2 (192 dpi from the X screen's size in mm)"),
                "\(startLine(app))")
        let size = try server.size(ofWindowNamed: "Overscroll")
        #expect(size.width == 960 && size.height == 1600)
        // A click at pixel (200, 800) is point (100, 400): row 7 of 56 pt rows (at one pixel
        // a point it would be row 14).
        Thread.sleep(forTimeInterval: 0.5)
        try server.tool("xdotool", ["mousemove", "--window", window, "200", "800", "click", "1", "sleep", "0.3"])
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
        let t = try Trace(path: "\(dir)/frames.csv")
        #expect(t.rows.last?["selected"] == "7")
    }

    @Test(arguments: [["--scale", "1"], ["--config", "scale = 1"]])
    func theScaleSettingOverridesTheDisplay(_ setting: [String]) throws {
        let server = try #require(try XServer(width: 1280, height: 2048, dpi: 192))
        var arguments = ["--no-sound"] + setting
        if setting[0] == "--config" { arguments[2] = try CLI.write(setting[1] + "\n", to: "scale.toml") }
        let app = try LiveApp(arguments, on: server)
        _ = try #require(try server.window(named: "Overscroll", timeout: 60), "no window: \(app.stderr)")
        let origin = setting[0] == "--scale" ? "--scale" : "scale in the config file"
        #expect(startLine(app).contains("window 480x800 pt (480x800 px), scale 1 (\(origin))"), "\(startLine(app))")
        let size = try server.size(ofWindowNamed: "Overscroll")
        #expect(size.width == 480 && size.height == 800)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 5) == 0)
    }

    @Test func aReplaysTraceIsInPointsWhateverTheScale() throws {
        let traces = try ["1", "2"].map { scale in
            let trace = CLI.temporaryPath("scale\(scale).csv")
            let r = try CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt", "--trace", trace, "--scale", scale])
            #expect(r.status == 0, "\(r.stderr)")
            return try String(contentsOfFile: trace, encoding: .utf8)
        }
        #expect(traces[0].count > 1000 && traces[0] == traces[1])
    }

    @Test(arguments: ["0.4", "4.5", "two"])
    func aScaleOutsideItsRangeIsAUsageError(_ value: String) throws {
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--scale", value])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--scale \(value) is") && r.stderr.contains("from 0.5 to 4"), "\(r.stderr)")
    }
}
