import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Inputs the machine cannot serve (issue 32), on the built program: a reload whose rows
/// the address-space limit cannot hold, and files whose `read` never returns (a stalled
/// network mount, made exact by a preloaded `read`). Each is refused in words; a running
/// window keeps its rows and still stops on SIGTERM.
@Suite struct InputLimitsTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func isWhole(_ report: String) -> Bool {
        ["frames.csv", "summary.json", "trace.json", "frames.svg"].allSatisfy {
            FileManager.default.fileExists(atPath: report + "/" + $0)
        }
    }

    /// The process's mapped bytes, from /proc.
    func mappedBytes(_ pid: Int32) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmSize:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 }
    }

    /// A window on content of three rows, settled, with its log gathered as it comes.
    struct Window {
        let server: XServer
        let app: LiveApp
        let config: String
        let report: String
        var log = ""
    }

    func openWindow() throws -> Window {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let rows = try CLI.write("alpha\nbeta\ngamma\n", to: "rows.txt")
        let config = try CLI.write("content = \"\(rows)\"\n", to: "kiosk.toml")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--config", config, "--report", report], on: server)
        #expect(poll(within: 60) { rowCounts(report).last == "3" })
        return Window(server: server, app: app, config: config, report: report)
    }

    func ends(_ window: Window) {
        window.app.signal(SIGTERM)
        #expect(window.app.waitForExit(timeout: 30) == 0)
        #expect(isWhole(window.report))
        #expect(rowCounts(window.report).last == "3", "the rows were not kept")
    }

    @Test func aReloadThatCannotGetItsMemoryIsRefusedInOneLineAndTheRowsStay() throws {
        var window = try openWindow()
        let big = CLI.temporaryPath("big.txt")
        #expect(FileManager.default.createFile(atPath: big, contents: Data(repeating: 0x61, count: 16 << 20)))
        let pid = window.app.process.processIdentifier
        let prlimit = try #require(Tools.find("prlimit"), "prlimit (util-linux) is needed")
        // Not a byte more address space than the window maps now (RLIMIT_AS, as ulimit -v).
        let mapped = try #require(mappedBytes(pid))
        _ = try CLI.run([prlimit, "--pid", "\(pid)", "--as=\(mapped):"], through: prlimit)
        try "content = \"\(big)\"\n".write(toFile: window.config, atomically: false, encoding: .utf8)
        window.app.signal(SIGHUP)
        #expect(poll(within: 60) { window.log += window.app.stderr; return window.log.contains("reload refused") })
        _ = try CLI.run([prlimit, "--pid", "\(pid)", "--as=unlimited:"], through: prlimit)
        let refusals = window.log.split(separator: "\n").filter { $0.contains("reload refused") }
        #expect(refusals.count == 1 && refusals[0].contains("not enough memory") && refusals[0].contains("big.txt"), "\(window.log)")
        #expect(window.app.process.isRunning)
        ends(window)
    }

    /// A file in a directory the preloaded `read` never answers for: `text`, or a copy of
    /// the file at `source`.
    func stalledFile(_ name: String, _ text: String = "", copying source: String? = nil) throws -> String {
        let dir = CLI.temporaryPath("stalled-mount")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if let source {
            try FileManager.default.copyItem(atPath: source, toPath: dir + "/" + name)
        } else {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }
        return dir + "/" + name
    }

    /// A replay given `flag` `path` under the preloaded `read` that never answers: its exit
    /// status, and its stderr's line that names the stalled file (the path is cut to 80
    /// characters in the line; its directory's name shows).
    func replayWithStalled(_ flag: String, _ path: String) throws -> (status: Int32, line: Substring, stderr: String) {
        let library = try #require(Preload.stalledMount, "a C compiler (cc) is needed to build the preloaded library")
        let r = try CLI.run(["replay", Self.script, flag, path, "--no-sound"],
                            environment: ["LD_PRELOAD": library])
        return (r.status, r.stderr.split(separator: "\n").first { $0.contains("stalled-mount") } ?? "", r.stderr)
    }

    @Test func aContentFileThatStallsIsRefusedAtStartWith66NamingIt() throws {
        let r = try replayWithStalled("--content", try stalledFile("rows.txt", "one\ntwo\n"))
        #expect(r.status == 66)
        #expect(r.line.contains("content file") && r.line.contains("no answer within"), "\(r.stderr)")
    }

    /// The font is read whole, off the main thread, within the deadline (`FontFile`), and
    /// drawn from memory: no frame reads it.
    @Test func aFontThatStallsIsRefusedAtStartWith66NamingIt() throws {
        let font = try stalledFile("DejaVuSans.ttf", copying: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let r = try replayWithStalled("--font", font)
        #expect(r.status == 66)
        #expect(r.line.contains("font") && r.line.contains("no answer within"), "\(r.stderr)")
    }

    @Test func aConfigThatStallsIsRefusedAtStartWith66NamingIt() throws {
        let library = try #require(Preload.stalledMount, "a C compiler (cc) is needed to build the preloaded library")
        let config = try stalledFile("kiosk.toml", "flash = false\n")
        let r = try CLI.run(["replay", Self.script, "--config", config, "--no-sound"],
                            environment: ["LD_PRELOAD": library])
        #expect(r.status == 66)
        #expect(r.stderr.contains("config file") && r.stderr.contains("stalled-mount") && r.stderr.contains("no answer within"),
                "\(r.stderr)")
    }

    @Test func aReloadWhoseContentStallsIsRefusedTheRowsStayAndSigtermEndsIt() throws {
        let library = try #require(Preload.stalledMount, "a C compiler (cc) is needed to build the preloaded library")
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let rows = try CLI.write("alpha\nbeta\ngamma\n", to: "rows.txt")
        let config = try CLI.write("content = \"\(rows)\"\n", to: "kiosk.toml")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--config", config, "--report", report], on: server,
                              environment: ["LD_PRELOAD": library])
        #expect(poll(within: 60) { rowCounts(report).last == "3" })
        let stalled = try stalledFile("new.txt", "one\ntwo\nthree\nfour\n")
        try "content = \"\(stalled)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        app.signal(SIGHUP)
        var log = ""
        #expect(poll(within: 60) { log += app.stderr; return log.contains("reload refused") })
        #expect(log.contains("no answer within") && log.contains("stalled-mount"), "\(log)")
        #expect(app.process.isRunning)
        ends(Window(server: server, app: app, config: config, report: report))
    }
}
