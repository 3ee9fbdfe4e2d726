import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Signals and killed processes: each has a defined outcome (docs/reference.md's signal table),
/// and nothing a refresh started is left behind.
@Suite struct FaultTests {
    /// A replay held in real time by a refresh command that takes `seconds`.
    private func slowReplay(command: String, trace: String, report: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        var arguments = ["replay", "Assets/gestures/pull-to-refresh.txt", "--refresh-command", command,
                         "--refresh-timeout", "60s", "--trace", trace]
        if let report { arguments += ["--report", report] }
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        var env = ProcessInfo.processInfo.environment
        env["SDL_AUDIODRIVER"] = "dummy"
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    @Test func aReplayEndedBySigtermSaysSoExitsNonZeroAndKeepsItsTrace() throws {
        let marker = uniqueSleep()
        let trace = CLI.temporaryPath("stopped.csv")
        let process = try slowReplay(command: "sleep \(marker)", trace: trace)
        #expect(poll { !processes(withArgument: marker).isEmpty }, "the refresh never started")
        kill(process.processIdentifier, SIGTERM)
        #expect(poll { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("replay stopped by SIGTERM after"))
        let t = try Trace(path: trace)
        #expect(t.rows.contains { $0["state"] == "refreshing" }, "the trace was not flushed")
        #expect(try String(contentsOfFile: trace, encoding: .utf8).hasSuffix("\n"))
        #expect(poll { processes(withArgument: marker).isEmpty }, "the refresh command outlived the replay")
    }

    @Test func sigkillOfTheAppMidRefreshLeavesNoProcessOfTheRefresh() throws {
        let detached = uniqueSleep(), child = uniqueSleep()
        let process = try slowReplay(command: "sh -c 'setsid sleep \(detached) & sleep \(child)'",
                                     trace: CLI.temporaryPath("killed.csv"))
        #expect(poll { processes(withArgument: detached).count == 1 && processes(withArgument: child).count == 1 },
                "the refresh command never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(poll { processes(withArgument: detached).isEmpty && processes(withArgument: child).isEmpty },
                "left running: \(processes(withArgument: detached) + processes(withArgument: child))")
    }

    @Test func sigpipeAndSigusr1DoNotEndAReplay() throws {
        let marker = uniqueSleep()
        let trace = CLI.temporaryPath("signals.csv"), report = CLI.temporaryPath("report")
        let process = try slowReplay(command: "sleep \(marker)", trace: trace, report: report)
        #expect(poll { !processes(withArgument: marker).isEmpty })
        kill(process.processIdentifier, SIGPIPE)
        kill(process.processIdentifier, SIGUSR1)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(process.isRunning, "SIGPIPE or SIGUSR1 ended the replay")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(FileManager.default.fileExists(atPath: report + "/summary.json"), "the report was lost")
    }

    @Test(arguments: [SIGABRT, SIGQUIT])
    func abortAndQuitEndTheLiveAppPromptlyKeepingFramesCsv(signal: Int32) throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report], on: server)
        _ = try #require(try server.window(named: "Overscroll"))
        Thread.sleep(forTimeInterval: 0.6)  // a few flushes of frames.csv
        app.signal(signal)
        // A watchdog's SIGABRT must end it (the runtime's backtracer used to leave it running).
        #expect(app.waitForExit(timeout: 2) != nil, "still running 2 s after signal \(signal)")
        #expect(app.process.terminationReason == .uncaughtSignal && app.process.terminationStatus == signal)
        let frames = try String(contentsOfFile: report + "/frames.csv", encoding: .utf8)
        #expect(frames.split(separator: "\n").count >= 2, "frames.csv lost its rows")
    }

    @Test func sigusr1AndSigpipeLeaveTheLiveAppRunningAndItsReportWhole() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report], on: server)
        _ = try #require(try server.window(named: "Overscroll"))
        app.signal(SIGUSR1)
        app.signal(SIGPIPE)
        #expect(app.waitForExit(timeout: 0.5) == nil, "SIGUSR1 or SIGPIPE ended the app")
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 2) == 0)
        #expect(FileManager.default.fileExists(atPath: report + "/summary.json"))
    }
}

