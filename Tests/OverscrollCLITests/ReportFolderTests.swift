import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A run's report folder as a kiosk needs it: one that cannot be made keeps no screen dark,
/// failed starts and restarts keep every complete report, and a path or a permission that
/// stops it is said whole, with its reason, before anything runs.
@Suite struct ReportFolderTests: ReportFolderChecks {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func directory() throws -> String {
        let dir = "/tmp/o52-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func listing(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// As the user `nobody` (a kiosk's files are another user's), run from root.
    func asUnprivileged(_ arguments: [String]) throws -> CLIResult {
        let setpriv = try #require(Tools.find("setpriv"), "setpriv (util-linux) is needed")
        try #require(getuid() == 0, "run as root, to become another user")
        return try CLI.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable] + arguments,
                           environment: ["HOME": "/nonexistent"], through: setpriv)
    }

    /// Issue 52 item 1: a report folder that cannot be made was exit 73 before any window, so
    /// systemd restarted the kiosk every 2 s on a dark screen. Now one warning naming the
    /// path and the reason, and the window shows its frames; a stop ends it with 0.
    @Test(arguments: [true, false])
    func aReportThatCannotBeMadeIsOneWarningAndTheWindowComesUp(inConfig: Bool) throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let dir = try directory()
        try "not a folder".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let report = dir + "/file/reports"
        let config = dir + "/kiosk.toml"
        try (inConfig ? "report = \"\(report)\"\n" : "flash = false\n").write(toFile: config, atomically: true, encoding: .utf8)
        let metrics = dir + "/o.prom"
        let app = try LiveApp(["--no-sound", "--verbose", "--config", config, "--metrics", metrics] + (inConfig ? [] : ["--report", report]), on: server)
        var log = ""
        #expect(poll(within: 30) { log += app.stderr; return log.contains("first frame shown") }, "\(log)")
        #expect(app.process.isRunning)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        log += app.stderr
        let warnings = log.split(separator: "\n").filter { $0.contains("warning: no frame-timing report") }
        #expect(warnings.count == 1, "\(log)")
        #expect(warnings.first?.contains("\(dir)/file") == true && warnings.first?.contains("Not a directory") == true, "\(log)")
        // The run went on: its metrics counted the frames it showed.
        let text = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
        #expect(text.contains("overscroll_frames_total ") && !text.contains("overscroll_frames_total 0\n"), "\(text)")
    }

    /// Issue 52 item 1 (and issue 47): `check-config` says the run's warning beforehand, with the
    /// folders' parents made as the run would: a parent that is a file, a folder the
    /// user may not write, a path past PATH_MAX. Exit 0: the window would start.
    @Test func checkConfigGivesTheRunsWarningForAReportItCannotWrite() throws {
        let dir = try directory()
        try "not a folder".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let locked = dir + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        #expect(chmod(locked, 0o555) == 0)
        // A folder of 4,060 bytes can be made; its runs' summary.json.tmp would be past PATH_MAX.
        var long = dir
        while long.utf8.count < 4060 - 201 { long += "/" + String(repeating: "d", count: 200) }
        long += "/" + String(repeating: "e", count: 4060 - long.utf8.count - 1)
        let cases: [(String, String, Bool)] = [(dir + "/file/reports", "Not a directory", false),
                                               (locked + "/reports", "Permission denied", true),
                                               (long, "PATH_MAX", false)]
        for (report, reason, unprivileged) in cases {
            let config = dir + "/kiosk.toml"
            try "report = \"\(report)\"\nmetrics = \"\(locked)/o.prom\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            let r = unprivileged ? try asUnprivileged(["check-config", config]) : try CLI.run(["check-config", config])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            let warning = lines.first { $0.hasPrefix("overscroll: warning: no frame-timing report this run: ") }
            #expect(warning?.contains(reason) == true, "\(report.prefix(80)): \(r.stderr.prefix(300))")
            if unprivileged {
                #expect(lines.contains { $0.hasPrefix("overscroll: warning: cannot write the metrics: ") && $0.contains("\(locked)/o.prom.tmp: Permission denied") }, "\(r.stderr)")
            }
        }
        // The folders' parents the run would make, check-config made: then the run finds them.
        let fresh = dir + "/new/parents/reports"
        let config = dir + "/fresh.toml"
        try "report = \"\(fresh)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try CLI.run(["check-config", config])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(listing(fresh).isEmpty && FileManager.default.fileExists(atPath: fresh), "nothing but the folder is left: \(listing(fresh))")
    }

    /// Issue 52 item 2: each start that failed before its first frame left an empty numbered run,
    /// and those counted toward `report-keep`: ten restarts deleted both complete reports.
    /// Twenty failed starts (no display, a bad font) now leave the folder as it was.
    @Test func twentyFailedStartsKeepEveryCompleteReport() throws {
        let dir = try directory()
        let reports = dir + "/reports"
        // Two complete reports, as two earlier runs of the kiosk left them.
        let complete = ["000001-2026-03-01T10-00-00Z", "000002-2026-03-01T11-00-00Z"]
        for name in complete {
            let made = try CLI.run(["replay", Self.script, "--report", reports + "/" + name])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let config = dir + "/kiosk.toml"
        try "report = \"\(reports)\"\nreport-keep = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let noDisplay = ["SDL_VIDEODRIVER": "x11", "DISPLAY": ":9999", "WAYLAND_DISPLAY": ""]
        for start in 0..<20 {
            let badFont = start % 2 == 1
            let r = try CLI.run(["--kiosk", "--no-sound", "--config", config] + (badFont ? ["--font", dir + "/none.ttf"] : []),
                                environment: noDisplay)
            #expect(r.status == (badFont ? 66 : 69), "\(r.stderr)")
        }
        #expect(listing(reports) == complete, "\(listing(reports))")
        for name in complete { #expect(isWhole(reports + "/" + name), "\(name)") }
    }

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

    /// Issue 52 item 6: a report path near PATH_MAX was accepted, the whole run played, then it
    /// exited 74 without summary.json. Now refused before the run (73), nothing made.
    @Test func aReportPathPastPathMaxIsRefusedBeforeTheRun() throws {
        let dir = try directory()
        var report = dir
        while report.utf8.count < 4080 - 201 { report += "/" + String(repeating: "r", count: 200) }
        report += "/" + String(repeating: "s", count: 4080 - report.utf8.count - 1)
        #expect(report.utf8.count == 4080)
        let r = try CLI.run(["replay", Self.script, "--report", report])
        #expect(r.status == 73, "\(r.stderr.suffix(300))")
        #expect(r.stderr.contains("PATH_MAX") && r.stderr.contains(report), "\(r.stderr.suffix(300))")
        #expect(listing(dir).isEmpty, "the run made \(listing(dir))")
    }

    /// Issue 52 item 6: the message cut the path to 80 characters, so it named no file.
    @Test func aLongReportPathIsShownWholeWithTheReason() throws {
        let dir = try directory()
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let long = dir + "/file/" + String(repeating: "r", count: 200) + "/\u{1B}[31mred"
        let r = try CLI.run(["replay", Self.script, "--report", long])
        #expect(r.status == 73)
        #expect(r.stderr.contains(dir + "/file/" + String(repeating: "r", count: 200) + "/\\u{1B}[31mred") && r.stderr.contains("Not a directory"), "\(r.stderr)")
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

    /// Issue 41 item 11: `--report /proc/nope` said "No such file or directory" (mkdir's word on
    /// procfs) and no fix.
    @Test func aReportWhereNoFileCanBeMadeSaysWhyAndTheFix() throws {
        let r = try CLI.run(["replay", "Assets/gestures/drag.txt", "--report", "/proc/nope"])
        #expect(r.status == 73)
        #expect(r.stderr.contains("/proc/nope: /proc is on the kernel's proc filesystem, where no files can be made; pass a writable new or empty directory"), "\(r.stderr)")
        #expect(!r.stderr.contains("No such file"))
    }

    /// Issue 52 item 7: as a user who cannot enter the run's folder (the kiosk's state directory is
    /// 0750), `report` said "no such directory" or "it has no summary.json".
    @Test func aReportTheUserMayNotEnterIsPermissionDeniedWithItsPath() throws {
        let dir = try directory()
        let state = dir + "/state", run = state + "/run"
        let made = try CLI.run(["replay", Self.script, "--report", run])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(chmod(state, 0o750) == 0 && chown(state, 0, 0) == 0)
        let shut = try asUnprivileged(["report", run])
        #expect(shut.status == 66 && shut.stderr.contains("cannot read \(run): Permission denied"), "\(shut.stderr)")
        // A folder it may enter but not list is fine (summary.json is opened by name); one
        // whose summary.json it may not read says so with that file's path.
        #expect(chmod(state, 0o711) == 0 && chmod(run, 0o711) == 0)
        #expect(try asUnprivileged(["report", run]).status == 0)
        #expect(chmod(run + "/summary.json", 0o600) == 0)
        let unreadable = try asUnprivileged(["report", run])
        #expect(unreadable.status == 66 && unreadable.stderr.contains("cannot read \(run)/summary.json: Permission denied"), "\(unreadable.stderr)")
    }

    /// Issue 41 item 11: `report-keep = 0` was refused as "points above 0 and below the window's
    /// height", 2.7 was accepted, the maximum was 16383.
    @Test func reportKeepHasItsOwnBoundsAndWords() throws {
        let words = "a whole number of runs from 1 to 1000 (the run being written is one)"
        for (value, what) in [("0", "is out of range"), ("2.7", "is not valid"), ("1001", "is out of range")] {
            let r = try CLI.run(["--report-keep", value])
            #expect(r.status == 64 && r.stderr.hasPrefix("Error: --report-keep \(value) \(what): it must be \(words)"), "\(r.stderr)")
        }
        for value in ["0", "2.7", "16383", "\"30\""] {
            let config = try CLI.write("report-keep = \(value)\n", to: "keep.toml")
            let r = try CLI.run(["check-config", config])
            #expect(r.status == 78 && r.stderr.contains(":1: 'report-keep' must be \(words), not \(value)"), "\(r.stderr)")
        }
        let config = try CLI.write("report-keep = 1000\n", to: "keep.toml")
        let r = try CLI.run(["check-config", config])
        #expect(r.status == 0 && r.stdout.contains("\nreport-keep = 1000 "), "\(r.stderr)")
    }
}
