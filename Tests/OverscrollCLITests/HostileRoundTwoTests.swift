import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The second hostile round (issue 32), on the built program: a log that cannot be
/// written, signals of every kind, a stuck main thread, files that would block, a
/// restarted service, pathological reports. Each test asserts the outcome (status, files,
/// lines), polling where something takes time.
@Suite struct HostileRoundTwoTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func isWhole(_ report: String) -> Bool {
        ["frames.csv", "summary.json", "trace.json", "frames.svg"].allSatisfy {
            FileManager.default.fileExists(atPath: report + "/" + $0)
        }
    }

    func frames(_ report: String) -> Int {
        ((try? String(contentsOfFile: report + "/frames.csv", encoding: .utf8))?.split(separator: "\n").count ?? 1) - 1
    }

    // MARK: Output that cannot kill

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

    // MARK: Signals

    @Test(arguments: [SIGUSR2, SIGVTALRM, SIGPROF, SIGXFSZ, SIGPIPE, SIGUSR1, Int32(40)])
    func signalsThatMeanNothingAreIgnored(signal: Int32) throws {
        let server = try #require(try XServer())
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report], on: server)
        #expect(poll { frames(report) > 0 })
        app.signal(signal)
        app.signal(SIGHUP)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(app.process.isRunning)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
    }

    @Test(arguments: [SIGALRM, SIGXCPU, SIGPWR])
    func signalsThatEndARunEndItAsSigtermDoesWithTheirOwnStatus(signal: Int32) throws {
        let server = try #require(try XServer())
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report], on: server)
        #expect(poll { frames(report) > 0 })
        app.signal(signal)
        #expect(app.waitForExit(timeout: 10) == 128 + signal)
        #expect(isWhole(report))
    }

    @Test func aSighupAsTheWindowOpensDoesNotEndIt() throws {
        let server = try #require(try XServer())
        let app = try LiveApp(["--no-sound"], on: server)
        // As soon as the program's own code runs (the catcher early_signals.c registers in
        // `.preinit_array` holds it until main).
        #expect(poll { self.catchesHangup(app.process.processIdentifier) })
        app.signal(SIGHUP)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(app.process.isRunning)
        // Ended once its window is up (the subject here is the SIGHUP).
        #expect(try server.window(named: "Overscroll") != nil)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
    }

    @Test func aFailingRefreshUnderAWrapperThatIgnoresSigchldKeepsTheRows() throws {
        let perl = try #require(Tools.find("perl"))
        let r = try CLI.run([perl, "-e", "$SIG{CHLD} = 'IGNORE'; exec @ARGV or die", CLI.executable, "replay", Self.script,
                             "--refresh-command", "sh -c 'echo partial; exit 3'"], through: perl)
        #expect(r.status == 0)
        #expect(r.stderr.contains("refresh failed: 'sh' exited 3"), "\(r.stderr)")
        #expect(!r.stderr.contains("refreshed:"))
    }

    // MARK: Shutdown that cannot wedge

    @Test func sigtermEndsAWindowWhoseXServerIsFrozenWithTheReportWhole() throws {
        let server = try #require(try XServer())
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report, "--refresh-every", "1s", "--refresh-duration", "0.5s"], on: server)
        #expect(poll { frames(report) > 30 })
        server.signal(SIGSTOP)
        defer { server.signal(SIGCONT) }
        Thread.sleep(forTimeInterval: 0.3)
        app.signal(SIGTERM)
        // The server never thaws during the wait: only the watcher can end the run.
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
        #expect(app.stderr.contains("SIGTERM: the frame loop did not stop"))
    }

    // MARK: Files that cannot block

    /// Content, a config reached through a symlink (it read as empty), and a font: each a
    /// FIFO given at start is refused in words with 66, not opened and waited on.
    @Test(arguments: [("--content", false), ("--config", true), ("--font", false)])
    func aFifoGivenAtStartIsRefusedWith66(flag: String, throughSymlink: Bool) throws {
        let fifo = CLI.temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        var path = fifo
        if throughSymlink {
            path = CLI.temporaryPath("link")
            #expect(symlink(fifo, path) == 0)
        }
        let r = try CLI.run(["replay", Self.script, flag, path])
        #expect(r.status == 66)
        #expect(r.stderr.contains("is a FIFO"))
    }

    @Test func aReloadWhoseContentBecameAFifoIsRefusedAndSigtermStillEndsTheWindow() throws {
        let server = try #require(try XServer())
        let content = try CLI.write("one\ntwo\n", to: "content.txt")
        let config = try CLI.write("content = \"\(content)\"\n", to: "kiosk.toml")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--config", config, "--report", report], on: server)
        #expect(poll { frames(report) > 0 })
        try FileManager.default.removeItem(atPath: content)
        #expect(mkfifo(content, 0o600) == 0)
        app.signal(SIGHUP)
        var log = ""
        #expect(poll { log += app.stderr; return log.contains("is a FIFO") }, "\(log)")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
    }

    // MARK: A report that survives restarts

    @Test func aServiceStartedTwiceOnOneConfiguredReportDirectoryWritesTwoWholeReports() throws {
        let server = try #require(try XServer())
        let dir = CLI.temporaryPath("reports")
        let config = try CLI.write("report = \"\(dir)\"\nreport-keep = 2\n", to: "kiosk.toml")
        for run in 0..<3 {
            let app = try LiveApp(["--kiosk", "--no-sound", "--config", config], on: server)
            // This run's own subdirectory has frames (not an earlier run's).
            #expect(poll { (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { frames(dir + "/" + $0) > 0 }.count ?? 0 > min(run, 1) })
            Thread.sleep(forTimeInterval: 1.1)   // runs are named by their start second
            app.signal(SIGTERM)
            #expect(app.waitForExit(timeout: 10) == 0)
        }
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(runs.count == 2, "report-keep = 2: \(runs)")
        for run in runs { #expect(isWhole(dir + "/" + run), "\(run) is not whole") }
    }

    @Test func reportOnTheCommandLineStillRefusesADirectoryThatHoldsOne() throws {
        let report = CLI.temporaryPath("report")
        #expect(try CLI.run(["replay", Self.script, "--report", report]).status == 0)
        let again = try CLI.run(["replay", Self.script, "--report", report])
        #expect(again.status == 73)
        #expect(again.stderr.contains("already holds a report"))
    }

    // MARK: Messages

    @Test func bidiOverridesAndEscapesFromARefreshCommandAreShownEscaped() throws {
        let r = try CLI.run(["replay", Self.script, "--refresh-command", "sh -c 'printf \"evil\\342\\200\\256txt\\033[31m\\n\" >&2; exit 2'"])
        #expect(r.stderr.contains("\\u{202E}"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains("\u{202E}"))
        #expect(!r.stderr.unicodeScalars.contains("\u{1B}"))
    }

    @Test func aColourEmojiFontIsRefusedWith66AndTheReason() throws {
        let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
        try #require(FileManager.default.fileExists(atPath: emoji), "fonts-noto-color-emoji is needed")
        let r = try CLI.run(["replay", Self.script, "--font", emoji])
        #expect(r.status == 66)
        #expect(r.stderr.contains("no outline glyphs for Latin text"))
    }

    @Test func reportRefusesANegativeMaximumAndAnImpossibleFrameCountInWords() throws {
        // The overall group's figures are the top level's.
        let negative = try editedReport { top in
            var interval = top["interval_ms"] as! [String: Any]
            interval["max"] = -1
            top["interval_ms"] = interval
        }
        let r1 = try CLI.run(["report", negative])
        #expect(r1.status == 65)
        #expect(r1.stderr.contains("is corrupt") && r1.stderr.contains("interval_ms"), "\(r1.stderr)")
        let huge = try editedReport { top in top["frames"] = 1 << 62 }
        let r2 = try CLI.run(["report", huge])
        #expect(r2.status == 65)
        #expect(r2.stderr.contains("is not a frame count"), "\(r2.stderr)")
    }

    @Test func reportRefusesAnOversizedSummaryUnreadAndAFifoByName() throws {
        let big = CLI.temporaryPath("big")
        try FileManager.default.createDirectory(atPath: big, withIntermediateDirectories: true)
        let fd = open(big + "/summary.json", O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(fd, 200 << 20) == 0)
        close(fd)
        let r1 = try CLI.run(["report", big])
        #expect(r1.status == 65)
        #expect(r1.stderr.contains("200 MiB"), "\(r1.stderr)")
        let fifoDir = CLI.temporaryPath("fifo")
        try FileManager.default.createDirectory(atPath: fifoDir, withIntermediateDirectories: true)
        #expect(mkfifo(fifoDir + "/summary.json", 0o600) == 0)
        let r2 = try CLI.run(["report", fifoDir])
        #expect(r2.status == 66)
        #expect(r2.stderr.contains("FIFO") && !r2.stderr.contains("ermission denied"), "\(r2.stderr)")
    }

    @Test func aPathLongerThan80IsCutInTheMessage() throws {
        let long = "/nonexistent/" + String(repeating: "d", count: 5000) + "/script.txt"
        let r = try CLI.run(["replay", long])
        #expect(r.status == 66)
        let line = try #require(r.stderr.split(separator: "\n").first)
        #expect(line.count < 300, "\(line.count) characters")
    }

    /// Issue 52 (item 6) reversed the cut to 80 characters: a cut path named no file.
    @Test func aLongReportPathIsShownWholeOnOneLine() throws {
        let file = try CLI.write("x", to: "file")
        let long = file + "/" + String(repeating: "r", count: 5000)
        let r = try CLI.run(["replay", Self.script, "--report", long])
        #expect(r.status == 73)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(long), "\(r.stderr.prefix(120))")
    }

    /// The program, which the `overscroll` launcher execs in its own process.
    func isOverscroll(_ pid: Int32) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("/overscroll-app") ?? false
    }

    /// Whether the process has a handler for SIGHUP (SigCgt in /proc): its code runs.
    func catchesHangup(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGHUP) - 1)) != 0
    }
}

/// A real report (a replay of a pull), its summary.json changed by `edit`.
func editedReport(_ edit: (inout [String: Any]) -> Void) throws -> String {
    let report = CLI.temporaryPath("report")
    #expect(try CLI.run(["replay", HostileRoundTwoTests.script, "--report", report]).status == 0)
    let path = report + "/summary.json"
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    return report
}
