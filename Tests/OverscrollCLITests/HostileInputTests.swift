import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile input and failing outputs, as a user (or a full disk) would produce them: each
/// ends with a clear one-line message and docs/reference.md's exit status, or the clean input's
/// result.
@Suite struct HostileInputTests {
    // MARK: Writes

    @Test func aTraceToDevFullFailsWithTheFileAndTheReason() throws {
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--trace", "/dev/full"])
        #expect(r.status == 73)
        #expect(r.stderr.contains("'/dev/full'") && r.stderr.contains("No space left on device"))
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test(.enabled(if: SmallTmpfs.canMount, "needs root and mount(2) to make a full filesystem (run as root outside a restricted container)"))
    func aTraceOnAFullFilesystemFailsAndLeavesNoFile() throws {
        let disk = try #require(SmallTmpfs(kilobytes: 16))
        let trace = disk.path + "/trace.csv"
        let r = try CLI.run(["replay", "Assets/gestures/benchmark.txt", "--trace", trace])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains(trace) && r.stderr.contains("No space left on device"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty,
                "a cut trace (or its temporary file) was left behind")
    }

    @Test(.enabled(if: SmallTmpfs.canMount, "needs root and mount(2) to make a full filesystem (run as root outside a restricted container)"))
    func aReportOnAFullFilesystemFailsWithoutLookingComplete() throws {
        let disk = try #require(SmallTmpfs(kilobytes: 16))
        let report = disk.path + "/report"
        let r = try CLI.run(["replay", "Assets/gestures/benchmark.txt", "--report", report])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("No space left on device"))
        #expect(!FileManager.default.fileExists(atPath: report + "/summary.json"))
        let frames = try Data(contentsOf: URL(fileURLWithPath: report + "/frames.csv"))
        #expect(frames.last == UInt8(ascii: "\n"), "frames.csv ends mid-row")
    }

    @Test func reportIntoDevFullFails() throws {
        let dir = CLI.temporaryPath("report")
        #expect(try CLI.run(["replay", "Assets/gestures/fling.txt", "--report", dir]).status == 0)
        let r = try CLI.run(["sh", "-c", "exec \"$0\" report \"$1\" >/dev/full", CLI.executable, dir], through: "/bin/sh")
        #expect(r.status == 74)
        #expect(r.stderr.contains("standard output") && r.stderr.contains("No space left on device"))
    }

    @Test func traceDashIsStandardOutput() throws {
        let cwd = CLI.temporaryPath("cwd")
        try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        let r = try CLI.run(["replay", CLI.packageRoot + "/Assets/gestures/fling.txt", "--trace", "-"], in: cwd)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("frame,t_ms,content_offset"))
        #expect(r.stdout.split(separator: "\n").count > 10)
        #expect(!FileManager.default.fileExists(atPath: cwd + "/-"))
    }

    @Test func reportRefusesANonEmptyDirectory() throws {
        let dir = CLI.temporaryPath("busy")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "keep me".write(toFile: dir + "/notes.txt", atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--report", dir])
        #expect(r.status == 73)
        #expect(r.stderr.contains("not empty") && r.stderr.contains("notes.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["notes.txt"])
    }

    // MARK: Scripts

    @Test func crlfAndLoneCrScriptsGiveTheLfTrace() throws {
        let text = "down 240 600\nmove 240 300 200ms\nup\nwait 1s\n"
        var traces: [String] = []
        for ending in ["\n", "\r\n", "\r"] {
            let script = try CLI.write(text.replacingOccurrences(of: "\n", with: ending), to: "s.txt")
            let trace = CLI.temporaryPath("t.csv")
            let r = try CLI.run(["replay", script, "--trace", trace])
            #expect(r.status == 0, "\(r.stderr)")
            traces.append(try String(contentsOfFile: trace, encoding: .utf8))
        }
        #expect(traces[0].count > 100)
        #expect(traces[1] == traces[0] && traces[2] == traces[0])
    }

    @Test func aBinaryScriptIsMalformed() throws {
        let r = try CLI.run(["replay", CLI.executable])
        #expect(r.status == 65)
        #expect(r.stderr.contains(":1:") && r.stderr.contains("plain text file"))
    }

    @Test(arguments: [("/tmp", "a directory"), ("/dev/zero", "a character device")])
    func notAFileAsAScriptSaysWhatItIs(path: String, words: String) throws {
        let r = try CLI.run(["replay", path])
        #expect(r.status == 66)
        #expect(r.stderr.contains("'\(path)' is \(words)") && r.stderr.contains("pass the path of a gesture script"))
    }

    @Test func aFifoAsAScriptSaysSoInsteadOfWaiting() throws {
        let fifo = CLI.temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try CLI.run(["replay", fifo])
        #expect(r.status == 66)
        #expect(r.stderr.contains("named pipe"))
    }

    @Test func aHugeTokenOrPathIsEchoedCut() throws {
        let script = try CLI.write("wait " + String(repeating: "9x", count: 500_000) + "\n", to: "huge.txt")
        let r = try CLI.run(["replay", script])
        #expect(r.status == 65)
        #expect(r.stderr.count < 400, "\(r.stderr.count) bytes of stderr")
        let path = "/nonexistent/" + String(repeating: "d", count: 100_000)
        let p = try CLI.run(["replay", path])
        #expect(p.status == 66)
        #expect(p.stderr.count < 400)
    }

    @Test func aScriptEndingWithAFingerDownLiftsItWithAWarning() throws {
        let script = try CLI.write("down 240 600\nmove 240 400 100ms\n", to: "held.txt")
        let trace = CLI.temporaryPath("held.csv")
        let r = try CLI.run(["replay", script, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(script):1: finger 1 is still down"))
        // Lifted: it flings and settles, instead of being held for the 60 s settle limit.
        let t = try Trace(path: trace)
        #expect(t.double(t.rows.count - 1, "t_ms") < 10_000)
        #expect(t.rows.last?["state"] == "idle")
    }

    // MARK: Other inputs

    @Test func aFontThatIsNotAFontIsUnreadableInputAndLeavesNoTrace() throws {
        let trace = CLI.temporaryPath("font.csv")
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--font", CLI.executable, "--trace", trace])
        #expect(r.status == 66)
        #expect(r.stderr.contains("is not a font") && r.stderr.contains("--font"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (trace as NSString).deletingLastPathComponent).isEmpty)
    }

    /// A lone CR is not a TOML line end (ConfigRefusalTests, issue 41 item 3).
    @Test(arguments: ["\r\n"])
    func configErrorsNameTheRightLineWhateverTheLineEnds(ending: String) throws {
        let config = try CLI.write(["# kiosk", "flash = true", "", "bogus = 1", ""].joined(separator: ending), to: "c.toml")
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--config", config])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(config):4: unknown key 'bogus'"), "\(r.stderr)")
    }

    @Test func aSizeTheMemoryCannotHoldIsRefused() throws {
        // A unit's MemoryMax= or `ulimit -v`: Mesa would segfault on the failed allocation.
        let r = try CLI.run(["sh", "-c", "ulimit -v 4000000 && exec \"$0\" replay Assets/gestures/fling.txt --size 16384x16384",
                             CLI.executable], through: "/bin/sh")
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("16384x16384") && r.stderr.contains("smaller --size"))
    }
}

/// A tiny tmpfs mounted for one test, to fill up; unmounted when dropped.
final class SmallTmpfs {
    let path: String

    static let canMount: Bool = {
        guard getuid() == 0, let probe = SmallTmpfs(kilobytes: 4) else { return false }
        _ = probe
        return true
    }()

    init?(kilobytes: Int) {
        path = CLI.temporaryPath("tmpfs")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else { return nil }
    }

    deinit { umount2(path, Int32(MNT_DETACH)) }
}
