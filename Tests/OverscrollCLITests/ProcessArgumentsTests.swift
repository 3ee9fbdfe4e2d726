import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The command line reaches the program as the process received it (issue 39), where the
/// Swift runtime's own guess of it failed: after a library constructor's setenv() moved
/// `environ` (sdl2-compat does that for every SDL 2 variable set), and without /proc. And
/// the launcher runs the program beside itself whatever argv[0] says.
@Suite struct ProcessArgumentsTests {
    /// Moves `environ` off the initial stack before main, as sdl2-compat's constructor
    /// does, and writes to $MOVED_REPORT whether it did (so the test knows it tried what
    /// it means to try). In the package the Swift runtime is linked into the program and
    /// looks for argv after every library's constructor, so the constructor alone breaks
    /// its guess; in a dev build the runtime is a shared library initialised before any
    /// preloaded one, so the library also moves `environ` at the moment the runtime
    /// looks (its fopen of /proc/self/maps, where it finds the stack to walk).
    static let movesEnviron = Preload.build("""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    extern char **environ;
    static char **initial = NULL;
    static void move_environ(void) {
        if (initial == NULL) initial = environ;
        if (environ != initial) return;
        /* A name not in the environment: glibc copies the whole array to the heap. */
        setenv("OVERSCROLL_TEST_ENVIRON_MOVED", "1", 1);
        const char *report = getenv("MOVED_REPORT");
        FILE *(*real_fopen)(const char *, const char *) = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
        FILE *f = report ? real_fopen(report, "w") : NULL;
        if (f) { fputs(environ != initial ? "moved" : "stayed", f); fclose(f); }
    }
    __attribute__((constructor)) static void at_load(void) { move_environ(); }
    FILE *fopen(const char *path, const char *mode) {
        if (strcmp(path, "/proc/self/maps") == 0) move_environ();
        FILE *(*real)(const char *, const char *) = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
        return real(path, mode);
    }
    """, named: "moves-environ")

    /// Whether this machine lets the tests hide /proc in a mount namespace of their own.
    static let canHideProc: Bool = {
        guard getuid() == 0, let unshare = Tools.find("unshare") else { return false }
        let r = try? CLI.run([unshare, "--mount", "--fork", "sh", "-c", "mount -t tmpfs none /proc && [ ! -e /proc/self ]"],
                             through: unshare)
        return r?.status == 0
    }()

    /// `bash -c SCRIPT` with `arguments` as $1…, in a mount namespace where /proc is an
    /// empty tmpfs; the script fails (70) if /proc still shows itself.
    func runWithoutProc(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let unshare = try #require(Tools.find("unshare"))
        let bash = try #require(Tools.find("bash"))
        return try CLI.run([unshare, "--mount", "--fork", bash, "-c",
                            "mount -t tmpfs none /proc && [ ! -e /proc/self ] || exit 70; " + script, "bash"] + arguments,
                           environment: environment, through: unshare)
    }

    /// A replay's trace, to compare runs by: every argument (script, --trace and its file)
    /// must have reached the program for it to exist.
    func referenceTrace() throws -> String {
        let trace = CLI.temporaryPath("reference.csv")
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--trace", trace], environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(r.status == 0, "\(r.stderr)")
        return try String(contentsOfFile: trace, encoding: .utf8)
    }

    @Test func argumentsSurviveASetenvBeforeMain() throws {
        let library = try #require(Self.movesEnviron, "a C compiler (cc) is needed to build the preloaded library")
        let report = CLI.temporaryPath("moved.txt")
        let environment = ["LD_PRELOAD": library, "MOVED_REPORT": report, "SDL_VIDEODRIVER": "offscreen"]
        let version = try CLI.run(["--version"], environment: environment)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "moved")
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n", "stderr: \(version.stderr)")
        let trace = CLI.temporaryPath("moved.csv")
        let replay = try CLI.run(["replay", "Assets/gestures/fling.txt", "--trace", trace], environment: environment)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == referenceTrace())
    }

    @Test(.enabled(if: canHideProc, "needs root and unshare to hide /proc"))
    func argumentsSurviveWithoutProc() throws {
        let version = try runWithoutProc("exec \"$@\"", [CLI.executable, "--version"], environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout == "0.1.0\n")
        let trace = CLI.temporaryPath("noproc.csv")
        let replay = try runWithoutProc("exec \"$@\"", [CLI.executable, "replay", "Assets/gestures/fling.txt", "--trace", trace],
                                        environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == referenceTrace())
    }

    /// A folder with an `overscroll-app` of its own that says "impostor": what the
    /// launcher would run if it believed an argv[0] pointing there.
    func impostorFolder() throws -> String {
        let impostor = try CLI.write("#!/bin/sh\necho impostor\n", to: "overscroll-app")
        chmod(impostor, 0o755)
        return String(impostor[..<impostor.lastIndex(of: "/")!])
    }

    @Test func theLauncherIgnoresArgvZero() throws {
        let bash = try #require(Tools.find("bash"))
        let folder = try impostorFolder()
        let r = try CLI.run([bash, "-c", "exec -a \"$1/overscroll\" \"$2\" --version", "bash", folder, CLI.executable], through: bash)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "0.1.0\n")
    }

    @Test(.enabled(if: canHideProc, "needs root and unshare to hide /proc"))
    func theLauncherIgnoresArgvZeroWithoutProc() throws {
        let folder = try impostorFolder()
        let r = try runWithoutProc("exec -a \"$1/overscroll\" \"$2\" --version", [folder, CLI.executable])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "0.1.0\n")
        // Run by a relative path, from its own folder: AT_EXECFN is relative there.
        let launcherFolder = String(CLI.executable[..<CLI.executable.lastIndex(of: "/")!])
        let relative = try runWithoutProc("cd \"$1\" && exec -a \"$2/overscroll\" ./overscroll --version", [launcherFolder, folder])
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(relative.stdout == "0.1.0\n")
    }
}
