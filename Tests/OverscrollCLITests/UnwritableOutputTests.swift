import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Output that cannot be written (a log closed or full, its reader gone, stdout closed, a
/// trace past the file size limit) ends nothing that should run on, is counted, and fails
/// what must fail, with a line.
@Suite struct UnwritableOutputTests: ReportFolderChecks {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func sh(_ command: String, _ arguments: String...) throws -> CLIResult {
        try CLI.run(["/bin/sh", "-c", command, CLI.executable] + arguments, through: "/bin/sh")
    }

    /// The program, which the `overscroll` launcher execs in its own process.
    func isOverscroll(_ pid: Int32) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("/overscroll-app") ?? false
    }

    @Test(arguments: ["2>&-", "2>/dev/full"])
    func aReplayWhoseLogCannotBeWrittenEndsNormallyWithItsReport(redirect: String) throws {
        let report = CLI.temporaryPath("report")
        let r = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay \(Self.script) --report \(report) \(redirect)", CLI.executable],
                            through: "/bin/sh")
        #expect(r.status == 0)
        #expect(isWhole(report))
    }

    @Test func aMissingScriptWithStderrClosedIsStill66() throws {
        let r = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay /nonexistent/script.txt 2>&-", CLI.executable], through: "/bin/sh")
        #expect(r.status == 66)
    }

    @Test func withStderrClosedAtStartTheReportFilesAreNotTheLog() throws {
        let report = CLI.temporaryPath("report")
        let r = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay \(Self.script) --report \(report) 2>&-", CLI.executable],
                            through: "/bin/sh")
        #expect(r.status == 0)
        let csv = try String(contentsOfFile: report + "/frames.csv", encoding: .utf8)
        #expect(!csv.contains("overscroll:"), "log lines went into frames.csv")
    }

    @Test func aTraceOverTheFileSizeLimitIs73WithALineAndNoTemporaryFile() throws {
        let dir = CLI.temporaryPath("limited")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let trace = dir + "/trace.csv"
        let r = try CLI.run(["/bin/sh", "-c", "ulimit -f 20; exec \"$0\" replay Assets/gestures/benchmark.txt --trace \(trace)", CLI.executable],
                            through: "/bin/sh")
        #expect(r.status == 73)
        #expect(r.stderr.contains("File too large"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aLiveWindowWhoseLogReaderDiedKeepsRunningAndEndsWithItsReport() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let report = CLI.temporaryPath("report")
        // The log's reader takes one line and goes; the refreshes after it write into a
        // closed pipe (EPIPE), which must cost the log only.
        let status = CLI.temporaryPath("status")
        let app = try LiveApp(["/bin/sh", "-c", "{ \"$0\" --no-sound --report \(report) --refresh-every 1s --refresh-duration 0.5s 2>&1 >/dev/null; echo $? >\(status); } | head -1 >/dev/null", CLI.executable],
                              on: server, through: "/bin/sh")
        #expect(poll { frames(report) > 30 })
        let drawn = frames(report)
        #expect(poll { frames(report) > drawn + 60 }, "the window stopped drawing after its log's reader died")
        let pid = try #require(processes(withArgument: report).first(where: isOverscroll))
        kill(pid, SIGTERM)
        #expect(app.waitForExit(timeout: 10) != nil)
        #expect((try? String(contentsOfFile: status, encoding: .utf8)) == "0\n")
        #expect(isWhole(report))
    }

    /// The metrics and the report count the log lines that could not be written: a refresh
    /// that fails logs one line, which `2>/dev/full` loses; with a working stderr none is lost.
    @Test(arguments: [("2>/dev/full", 1), ("2>/dev/null", 0)])
    func theMetricsCountLogLinesThatCouldNotBeWritten(redirect: String, dropped: Int) throws {
        let metrics = CLI.temporaryPath("overscroll.prom"), report = CLI.temporaryPath("report")
        let r = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay \(Self.script) --refresh-command false --metrics \(metrics) --report \(report) \(redirect)",
                             CLI.executable], through: "/bin/sh")
        #expect(r.status == 0)
        // The report's summary tells of the same gap.
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json"))) as? [String: Any]
        #expect(summary?["log_lines_dropped"] as? Int == dropped)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix("overscroll_log_lines_dropped_total ") }
        #expect(line == "overscroll_log_lines_dropped_total \(dropped)")
        #expect(text.contains("# TYPE overscroll_log_lines_dropped_total counter"))
        let promtool = try #require(Tools.find("promtool"), "promtool is needed: script/bootstrap --test installs prometheus")
        let check = try CLI.run(["/bin/sh", "-c", "\"$0\" check metrics < \(metrics) 2>&1", promtool], through: "/bin/sh")
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout)")
    }

    /// Issue 41 item 9: with stdout closed (`>&-`), check-config, report and `--trace -` exited 0.
    @Test func aClosedStandardOutputFailsAsAFullOneDoes() throws {
        let config = try CLI.write("flash = false\n", to: "kiosk.toml")
        let check = try sh("exec \"$0\" check-config \"$1\" >&-", config)
        #expect(check.status == 74 && check.stderr.contains("cannot write to standard output: it is closed"), "\(check.stderr)")
        let report = CLI.temporaryPath("report")
        #expect(try CLI.run(["replay", Self.script, "--report", report]).status == 0)
        for command in ["exec \"$0\" report \"$1\" >&-", "exec \"$0\" report \"$1\" \"$1\" >&-"] {
            let r = try sh(command, report)
            #expect(r.status == 74 && r.stderr.contains("it is closed"), "\(r.stderr)")
        }
        // Help and version are output too: closed or full, they fail as the rest does.
        for flags in ["--help", "--version", "replay --help"] {
            for redirect in [">&-", ">/dev/full"] {
                let r = try sh("exec \"$0\" \(flags) \(redirect)", "")
                #expect(r.status == 74 && r.stderr.contains("cannot write to standard output"), "\(flags) \(redirect): \(r.stderr)")
            }
            let shown = try CLI.run(flags.split(separator: " ").map(String.init))
            #expect(shown.status == 0 && !shown.stdout.isEmpty && shown.stderr.isEmpty, "\(flags): \(shown.stderr)")
        }
        let trace = try sh("exec \"$0\" replay \"$1\" --trace - >&-", Self.script)
        #expect(trace.status == 73 && trace.stderr.contains("cannot write the trace to standard output: it is closed"), "\(trace.stderr)")
    }

    /// Issue 41 item 10: with stderr closed (`2>&-`) the lines lost were counted 0.
    @Test func logLinesLostToAClosedStderrAreCounted() throws {
        let report = CLI.temporaryPath("report")
        let r = try sh("exec \"$0\" replay \"$1\" --refresh-command false --report \"$2\" 2>&-", Self.script, report)
        #expect(r.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/summary.json"))) as? [String: Any]
        #expect((summary?["log_lines_dropped"] as? Int ?? 0) >= 1, "\(String(describing: summary?["log_lines_dropped"]))")
    }
}
