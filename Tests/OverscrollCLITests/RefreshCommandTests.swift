import Foundation
import Testing

/// `--refresh-command` through replay: a script that pulls past the threshold and waits.
@Suite struct RefreshCommandTests {
    let pull = "down 240 120\nmove 240 560 500ms\nwait 100ms\nup\nwait 2500ms\n"

    func replay(_ extra: [String]) throws -> (Trace, CLIResult) {
        let script = try CLI.write(pull, to: "pull.txt")
        let trace = CLI.temporaryPath("t.csv")
        let r = try CLI.run(["replay", script, "--trace", trace] + extra)
        return (try Trace(path: trace), r)
    }

    func events(_ t: Trace) -> [String] { t.rows.compactMap { $0["events"] }.filter { !$0.isEmpty } }

    @Test func theCommandsLinesBecomeTheRows() throws {
        let (t, r) = try replay(["--refresh-command", "printf 'one\\ntwo\\nthree\\n'"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(events(t) == ["feedback;flash", "refresh-start", "refresh-end"])
        #expect(t.rows.last?["rows"] == "3")
        #expect(t.rows.last?["content_offset"] == "0.000")
    }

    @Test(arguments: [
        ["--refresh-command", "sh -c 'echo broken >&2; exit 3'"],
        ["--refresh-command", "/nonexistent/fetch-rows"],
        ["--refresh-command", "sleep 30.4127", "--refresh-timeout", "700ms"],
    ])
    func failuresShowAnErrorAndKeepTheOldRows(extra: [String]) throws {
        let (t, r) = try replay(extra)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(events(t) == ["feedback;flash", "refresh-start", "refresh-error"])
        #expect(t.rows.last?["rows"] == "100")
        #expect(t.rows.last?["state"] == "idle")
        // A hung command is killed at the timeout, not waited for or left behind: once the
        // run has ended, no `sleep 30.4127` is left in the process table.
        if extra.contains("sleep 30.4127") {
            #expect(poll { processes(withArgument: "30.4127").isEmpty }, "the hung command outlived the run")
        }
    }

    @Test func aTimeoutTakesAsLongInReplayAsItWouldLive() throws {
        let (t, r) = try replay(["--refresh-command", "sleep 30", "--refresh-timeout", "1s"])
        #expect(r.status == 0, "\(r.stderr)")
        let start = try #require(t.rows.firstIndex { $0["events"] == "refresh-start" })
        let error = try #require(t.rows.firstIndex { $0["events"] == "refresh-error" })
        let waited = t.double(error, "t_ms") - t.double(start, "t_ms")
        // Not at once (the virtual clock follows real time while real work runs) and not
        // much later; the frame that reports it may land a few skipped frames past the
        // deadline on a loaded machine, so the upper bound is generous.
        #expect(waited >= 1000 - 1000.0 / 60 && waited < 2000, "waited \(waited) ms")
    }

    @Test func contentFileRowsAreShown() throws {
        let content = try CLI.write("alpha\r\nbeta\n\ngamma\n", to: "rows.txt")
        let trace = CLI.temporaryPath("c.csv")
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--content", content, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Trace(path: trace).rows.first?["rows"] == "3")
        let missing = try CLI.run(["replay", "Assets/gestures/drag.txt", "--content", "/nonexistent/rows.txt"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/rows.txt"))
    }
}
