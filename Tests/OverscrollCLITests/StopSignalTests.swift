import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Signals on the built program: those that mean nothing are ignored, those that end a run
/// end it as SIGTERM does (with their own status and the report whole), a SIGHUP as the
/// window opens ends nothing, and a frozen X server cannot wedge the end.
@Suite struct StopSignalTests: ReportFolderChecks {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    /// Whether the process has a handler for SIGHUP (SigCgt in /proc): its code runs.
    func catchesHangup(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGHUP) - 1)) != 0
    }

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

    /// How a stop's time went, with --verbose: the loop itself ended (no "did not stop"
    /// from the watcher) and the report, synced, took so many ms. A slow disk's report is
    /// told apart from a loop that ignored the signal (script/cage-test reads this line).
    @Test func sigtermWithVerboseSaysTheLoopEndedAndHowLongTheReportTook() throws {
        let server = try #require(try XServer())
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--verbose", "--report", report], on: server)
        #expect(poll { frames(report) > 0 })
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
        let line = app.stderr.split(separator: "\n").first { $0.contains("SIGTERM: the loop ended") }.map(String.init) ?? ""
        #expect(line.hasPrefix("overscroll: SIGTERM: the loop ended; the report written to \(report) in "), "\(app.stderr)")
        let ms = Int(line.split(separator: " ").dropLast().last ?? "")
        #expect(line.hasSuffix(" ms") && ms != nil && ms! >= 0, "\(line)")
        #expect(!app.stderr.contains("did not stop"), "\(app.stderr)")
    }

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
}
