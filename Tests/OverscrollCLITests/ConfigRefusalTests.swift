import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Configs a reader could choke on (arrays nested a hundred thousand deep, a NUL in a value,
/// TOML that TOML refuses, a word without quotes, a period under a second) are refused with
/// their line, the key, the value and what is allowed; the README's own words are accepted.
@Suite struct ConfigRefusalTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

    func directory() throws -> String {
        let dir = "/tmp/o41-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A config in a short directory of its own (messages cut paths past 80 characters).
    func config(_ text: String) throws -> String {
        try configBytes(Array(text.utf8))
    }

    func configBytes(_ bytes: [UInt8]) throws -> String {
        let dir = "/tmp/o41-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/kiosk.toml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func isWhole(_ report: String) -> Bool {
        ["frames.csv", "summary.json", "trace.json", "frames.svg"].allSatisfy {
            FileManager.default.fileExists(atPath: report + "/" + $0)
        }
    }

    /// Issue 41 item 1: 100,000 nested arrays (200 KB on one line; 400 KB one bracket a line) were
    /// a SIGSEGV (139); under `ulimit -s 256`, 10,000 levels were. Now a FILE:LINE error.
    @Test(arguments: [(false, "256"), (true, "256"), (true, "unlimited")])
    func aHundredThousandNestedArraysAreRefusedWithTheirLine(oneALine: Bool, stack: String) throws {
        let open = oneALine ? "[\n" : "[", close = oneALine ? "]\n" : "]"
        let path = try config("flash = " + String(repeating: open, count: 100_000) + String(repeating: close, count: 100_000))
        let r = try CLI.run(["/bin/sh", "-c", "ulimit -s \(stack); exec \"$0\" check-config \"$1\"", CLI.executable, path],
                            through: "/bin/sh")
        #expect(r.status == 78, "\(r.stderr)")
        let expected = oneALine ? "\(path):33: arrays nested more than 32 deep" : "\(path):1: a line longer than 64 KiB"
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    /// Issue 41 item 1: the same file sent by SIGHUP killed a live window and lost its summary.json.
    @Test func aReloadOfAHundredThousandNestedArraysKeepsTheWindowAndItsReport() throws {
        let server = try #require(try XServer(), "Xvfb is needed: script/bootstrap --test installs it")
        let path = try config("flash = false\n")
        let report = CLI.temporaryPath("report")
        let app = try LiveApp(["--no-sound", "--config", path, "--report", report], on: server)
        #expect(poll(within: 30) { !rowCounts(report).isEmpty }, "the window drew no frame")
        try Data(("flash = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        app.signal(SIGHUP)
        var log = ""
        #expect(poll(within: 30) { log += app.stderr; return log.contains("reload refused") }, "\(log)")
        #expect(log.contains("\(path):1: a line longer than 64 KiB"), "\(log)")
        #expect(app.process.isRunning)
        app.signal(SIGTERM)
        #expect(app.waitForExit(timeout: 10) == 0)
        #expect(isWhole(report))
    }

    /// Issue 41 item 2: `"\u0000"` in a path was accepted and the path cut at it (another file used).
    @Test(arguments: ["content", "metrics", "refresh-command"])
    func aNulInAValueIsRefusedWithItsLine(key: String) throws {
        let path = try config("\n\(key) = \"/etc/hostname\\u0000.txt\"\n")
        let r = try CLI.run(["replay", Self.script, "--config", path])
        #expect(r.status == 78, "\(r.stderr)")
        #expect(r.stderr.contains("\(path):2: '\(key)' must be") && r.stderr.contains("a NUL character (\\u0000) in a string is not supported"), "\(r.stderr)")
    }

    /// Issue 41 item 3: raw control characters in strings and comments, `\e`, a lone CR line end
    /// and `"""a""""""` were accepted.
    @Test(arguments: [
        ("flash = true\ncontent = \"a\u{1B}[2Jb\"\n", 2, "a raw control character U+001B"),
        ("# a comment \u{7}\nflash = true\n", 1, "a raw control character U+0007"),
        ("content = \"\\e[31m\"\n", 1, "unknown escape '\\e'"),
        ("flash = true\rsound = false\r", 1, "a carriage return (CR) not followed by a line feed"),
        ("flash = true\ncontent = \"\"\"a\"\"\"\"\"\"\n", 2, "6 quotes in a row"),
    ])
    func invalidTOMLIsRefusedWithItsLine(text: String, line: Int, words: String) throws {
        let path = try config(text)
        let r = try CLI.run(["check-config", path])
        #expect(r.status == 78, "\(r.stderr)")
        #expect(r.stderr.contains("\(path):\(line): \(words)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stdout.isEmpty)
    }

    /// Issue 41 item 4: `flash = maybe` said only "'maybe' is not a TOML value".
    @Test func aWordWithoutQuotesNamesTheKeyTheValueAndWhatIsAllowed() throws {
        let path = try config("flash = maybe\n")
        let r = try CLI.run(["check-config", path])
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(path):1: 'flash' must be true or false (or \"on\"/\"off\"): 'maybe' is not a TOML value (text needs quotes)"), "\(r.stderr)")
        // A valid value of the wrong kind is named too.
        let wrong = try CLI.run(["check-config", try config("\nrotate = \"sideways\"\n")])
        #expect(wrong.stderr.contains(":2: 'rotate' must be 0, 90, 180 or 270, not \"sideways\""), "\(wrong.stderr)")
    }

    /// Issue 41 item 4: `flash = "on"` was refused though the settings table (docs/reference.md) gives "on" as its default.
    @Test func theReadmesWordsForADefaultAreAccepted() throws {
        let path = try config("flash = \"on\"\nsound = \"OFF\"\nkiosk = \"off\"\nstatus-text = \"on\"\n")
        let r = try CLI.run(["check-config", path])
        #expect(r.status == 0, "\(r.stderr)")
        for expected in ["flash = true", "sound = false", "kiosk = false", "status-text = \"on\""] {
            #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix(expected + " ") }, "\(expected): \(r.stdout)")
        }
    }

    /// Issue 52 item 5: `refresh-every = "10ms"` (a slip for "10m") was taken: the command ran twice
    /// a second. Now refused, the bound named, as every other bad value is.
    @Test func aRefreshEveryUnderASecondIsRefusedWithTheBoundNamed() throws {
        let flag = try CLI.run(["replay", Self.script, "--refresh-every", "10ms"])
        #expect(flag.status == 64 && flag.stderr.contains("--refresh-every 10ms is out of range: it must be a duration of at least 1s"), "\(flag.stderr)")
        let dir = try directory()
        let config = dir + "/kiosk.toml"
        try "\nrefresh-every = \"10ms\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let file = try CLI.run(["check-config", config])
        #expect(file.status == 78 && file.stderr.contains("\(config):2:") && file.stderr.contains("at least 1s"), "\(file.stderr)")
        #expect(try CLI.run(["replay", Self.script, "--refresh-every", "1s"]).status == 0)
    }
}
