import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12 from the outside: the log lines, the trace's new columns, the options.
@Suite struct ListCLITests {
    let pull = "down 240 120\nmove 240 560 500ms\nwait 100ms\nup\nwait 2500ms\n"

    func replay(_ script: String, _ extra: [String]) throws -> (Trace, CLIResult) {
        let path = try CLI.write(script, to: "s.txt")
        let trace = CLI.temporaryPath("t.csv")
        let r = try CLI.run(["replay", path, "--trace", trace] + extra)
        return (try Trace(path: trace), r)
    }

    func lines(_ stderr: String, _ prefix: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("overscroll: " + prefix) }
    }

    @Test func aSuccessfulRefreshLogsOneLineWithRowsAndTime() throws {
        let (t, r) = try replay(pull, ["--refresh-command", "printf 'one\\ntwo\\nthree\\n'"])
        #expect(r.status == 0, "\(r.stderr)")
        let logged = lines(r.stderr, "refreshed:")
        #expect(logged.count == 1, "\(r.stderr)")
        #expect(logged.first?.wholeMatch(of: /overscroll: refreshed: 3 rows in \d+\.\d\d s/) != nil, "\(logged)")
        #expect(t.rows.last?["rows"] == "3")
    }

    @Test func aFailedRefreshLogsTheReasonAndKeepsTheRows() throws {
        let (t, r) = try replay(pull, ["--refresh-command", "sh -c 'echo server unreachable >&2; exit 2'"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stderr, "refresh") == ["overscroll: refresh failed: 'sh' exited 2: server unreachable (kept 100 rows)"])
        #expect(t.rows.last?["rows"] == "100")
    }

    @Test func aTimedOutRefreshLogsTheTimeoutAndKeepsTheRows() throws {
        let (t, r) = try replay(pull, ["--refresh-command", "sleep 30", "--refresh-timeout", "1s"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stderr, "refresh") == ["overscroll: refresh timed out after 1 s (kept 100 rows)"])
        #expect(t.rows.last?["rows"] == "100")
    }

    @Test func theTraceHasTheNewColumnsLastAndKeyAndTapEvents() throws {
        let (t, r) = try replay("down 240 300\nwait 50ms\nup\nwait 100ms\nkey F5\nwait 100ms\nkey Down ctrl\nwait 2s", [])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(t.header == ["frame", "t_ms", "content_offset", "velocity", "state", "progress", "rows", "events",
                             "scrollbar", "highlight", "selected"])
        let events = t.rows.compactMap { $0["events"] }.filter { !$0.isEmpty }
        #expect(events.prefix(3) == ["tap", "refresh-start;key", "key"])
        // Row 5 was tapped; the refresh put 3 rows on top, and the selection went with its row.
        #expect(t.rows.first { $0["events"] == "tap" }?["selected"] == "5")
        #expect(t.rows.last?["selected"] == "8")
        #expect(t.rows.contains { Double($0["scrollbar"]!)! > 0 })
    }

    @Test func aKioskIgnoresKeysUnlessAskedAndTheStatusOptionIsChecked() throws {
        let (kiosk, _) = try replay("key F5\nwait 100ms", ["--kiosk"])
        #expect(kiosk.rows.allSatisfy { $0["events"] == "" })
        let (keyboard, _) = try replay("key F5\nwait 100ms", ["--kiosk", "--keyboard"])
        #expect(keyboard.rows.first?["events"] == "refresh-start;key")
        let bad = try CLI.run(["replay", "Assets/gestures/drag.txt", "--status-text", "maybe"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--status-text"))
        #expect(try CLI.run(["replay", "Assets/gestures/drag.txt", "--status-text", "off"]).status == 0)
    }

    @Test func aBadKeyInAScriptNamesTheLineAndTheKeys() throws {
        let path = try CLI.write("wait 10ms\nkey Tab\n", to: "k.txt")
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains(":2:5: unknown key 'Tab'"), "\(r.stderr)")
    }

    /// Polls the live run's streamed frames.csv until `done` holds for it, for up to 20 s.
    func waitForFrames(in report: String, until done: (Trace) -> Bool) -> Trace? {
        // Generous: a loaded machine runs several live windows at once.
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            if let trace = try? Trace(path: report + "/frames.csv"), done(trace) { return trace }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    func count(_ event: String, in trace: Trace) -> Int {
        trace.rows.filter { ($0["events"] ?? "").split(separator: ";").contains(Substring(event)) }.count
    }

    @Test func liveItLogsTheStartAndOneLinePerRefreshAndTakesKeys() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let report = CLI.temporaryPath("live")
        let app = try LiveApp(["--no-sound", "--refresh-duration", "300ms", "--report", report], on: server)
        let window = try #require(try server.window(named: "Overscroll"))
        for n in 1...2 {
            try server.tool("xdotool", ["key", "--window", window, "F5"])
            // Ended, and the list back at rest: a refresh is asked for from idle.
            let ended = waitForFrames(in: report) { self.count("refresh-end", in: $0) == n && $0.rows.last?["refresh_state"] == "idle" }
            #expect(ended != nil, "refresh \(n) did not end")
        }
        try server.tool("xdotool", ["key", "--window", window, "Escape"])
        #expect(app.waitForExit(timeout: 5) == 0)
        let err = app.stderr
        let log = err.split(separator: "\n").map(String.init)
        #expect(log.first?.wholeMatch(of: /overscroll: started: video x11, renderer \S+, window 480x800 pt \(480x800 px\), scale 1 \(100 dpi from the X screen's size in mm\), refresh [\d.]+ Hz/) != nil, "\(err)")
        #expect(log.filter { $0.hasPrefix("overscroll: refresh") } == Array(repeating: "overscroll: refreshed: 3 rows in 0.30 s", count: 2), "\(err)")
    }

    @Test(arguments: [
        (["--refresh-command", "sh -c 'echo server unreachable >&2; exit 2'"],
         "overscroll: refresh failed: 'sh' exited 2: server unreachable (kept 100 rows)"),
        (["--refresh-command", "sleep 30", "--refresh-timeout", "1s"],
         "overscroll: refresh timed out after 1 s (kept 100 rows)"),
    ])
    func liveAFailedOrTimedOutCommandLogsItsLineAndKeepsTheRows(extra: [String], line: String) throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let report = CLI.temporaryPath("live")
        let app = try LiveApp(["--no-sound", "--report", report] + extra, on: server)
        let window = try #require(try server.window(named: "Overscroll"))
        try server.tool("xdotool", ["key", "--window", window, "F5"])
        // Until the error has shown and the list is back at rest (the banner gone).
        let trace = waitForFrames(in: report) { self.count("refresh-error", in: $0) == 1 && $0.rows.last?["refresh_state"] == "idle" }
        #expect(trace?.rows.last?["rows"] == "100")
        try server.tool("xdotool", ["key", "--window", window, "Escape"])
        #expect(app.waitForExit(timeout: 5) == 0)
        let err = app.stderr
        #expect(err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("overscroll: refresh") } == [line], "\(err)")
    }
}
