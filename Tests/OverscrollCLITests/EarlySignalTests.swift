import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Signals in the program's first milliseconds (issue 32), on the built program. The
/// moments are made exact with a preloaded library instead of a sleep before `kill`: its
/// initialiser runs while the loader starts the program, after the program's own
/// `.preinit_array` catcher and before Swift's main (where a SIGHUP 5 ms after exec
/// lands), and its `SDL_InitSubSystem` sends a signal as SDL starts the display.
@Suite struct EarlySignalTests {
    static let source = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <signal.h>
    #include <stdint.h>
    #include <stdlib.h>
    #include <unistd.h>
    __attribute__((constructor)) static void early(void) {
        const char *s = getenv("EARLY_SIGNAL");
        if (s) kill(getpid(), atoi(s));
    }
    int SDL_InitSubSystem(uint32_t flags) {
        const char *s = getenv("SDL_START_SIGNAL");
        if (s && (flags & 0x20)) kill(getpid(), atoi(s));   /* 0x20: SDL_INIT_VIDEO */
        int (*real)(uint32_t) = (int (*)(uint32_t))dlsym(RTLD_NEXT, "SDL_InitSubSystem");
        return real(flags);
    }
    """

    /// The library, compiled once per test process.
    static let library = Preload.build(source, named: "signal-at")

    /// An audit library (`LD_AUDIT`): the loader starts it before it maps any of the
    /// program's libraries, so its signal comes in the loader's own work, before any code
    /// of the program can catch it: the window a SIGHUP 5 ms after exec falls in.
    static let audit = Preload.build("""
    #include <signal.h>
    #include <stdlib.h>
    #include <unistd.h>
    unsigned int la_version(unsigned int version) {
        const char *s = getenv("LOADER_SIGNAL");
        if (s) kill(getpid(), atoi(s));
        return version;
    }
    """, named: "signal-in-loader")

    static let longScript = "wait 600s\n"

    /// A long replay (it stops at a SIGHUP, as at SIGTERM, with 128 + the signal), with
    /// `environment` added to the test's.
    func replay(environment: [String: String] = [:]) throws -> Process {
        let script = try CLI.write(Self.longScript, to: "long.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["replay", script, "--repeat", "1000", "--no-sound"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SDL_AUDIODRIVER": "dummy"]) { $1 }
            .merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A replay with `signal` sent by a library initialiser.
    func replayWith(earlySignal signal: Int32) throws -> Process {
        let library = try #require(Self.library, "a C compiler (cc) is needed to build the preloaded library")
        return try replay(environment: ["LD_PRELOAD": library, "EARLY_SIGNAL": String(signal)])
    }

    /// The replay ended the defined way for `signal` (128 + it), not by its default action.
    func expectHandled(_ process: Process, _ signal: Int32) {
        #expect(poll(within: 60) { !process.isRunning })
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 128 + signal)
    }

    @Test(arguments: [SIGHUP, SIGTERM, SIGINT, SIGALRM])
    func aSignalWhileTheLibrariesStartIsHandledNotTheDefaultAction(signal: Int32) throws {
        let process = try replayWith(earlySignal: signal)
        expectHandled(process, signal)
    }

    /// The `overscroll` launcher execs the program with every signal blocked: the signal
    /// waits, pending, for the program's catcher.
    @Test(arguments: [SIGHUP, SIGTERM, SIGINT, SIGALRM])
    func aSignalWhileTheLoaderMapsTheLibrariesWaitsForTheProgram(signal: Int32) throws {
        let audit = try #require(Self.audit, "a C compiler (cc) is needed to build the audit library")
        let process = try replay(environment: ["LD_AUDIT": audit, "LOADER_SIGNAL": String(signal)])
        expectHandled(process, signal)
    }

    /// The launcher's part, seen from outside: the program it execs is told apart from a
    /// launch of its own only by argv[0], and its name in the process table is `overscroll`.
    @Test func theLauncherRunsTheProgramInItsOwnProcessUnderItsName() throws {
        let process = try replay()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        let pid = process.processIdentifier
        // The file is the program from exec on; the name is set by its first code.
        #expect(poll(within: 60) {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("/overscroll-app") ?? false
        })
        #expect(poll(within: 60) { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "overscroll\n" })
        kill(pid, SIGTERM)
        #expect(poll(within: 60) { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGTERM)
    }

    /// An incomplete build or install: one line naming the missing program, 127.
    @Test func theLauncherWithoutTheProgramSaysSoIn127() throws {
        let directory = CLI.temporaryPath("launcher-alone")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let launcher = directory + "/overscroll"
        try FileManager.default.copyItem(atPath: CLI.executable, toPath: launcher)
        let r = try CLI.run([launcher, "--version"], through: launcher)
        #expect(r.status == 127)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.contains("launcher-alone/overscroll-app"))   // the path, cut to 80 from the front
        #expect(r.stderr.contains("No such file"))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopWhileSDLStartsTheDisplayEndsTheRunTheDefinedWay(signal: Int32) throws {
        let library = try #require(Self.library, "a C compiler (cc) is needed to build the preloaded library")
        let server = try #require(try XServer())
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--report", report], on: server,
                              environment: ["LD_PRELOAD": library, "SDL_START_SIGNAL": String(signal)])
        let status = app.waitForExit(timeout: 60)
        if status == nil { app.signal(SIGKILL) }
        #expect(app.process.terminationReason == .exit, "killed by signal \(app.process.terminationStatus)")
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: report + "/summary.json"))
    }
}
