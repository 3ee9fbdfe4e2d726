import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `overscroll check-config`, config drop-ins (`FILE.d/*.toml`) and a replay honouring
/// `metrics`, on the built program.
@Suite struct CheckConfigTests {
    /// A config in a directory of its own, with drop-ins beside it; a short path, as
    /// messages cut paths past 80 characters.
    func config(_ text: String, dropIns: [String: String] = [:]) throws -> String {
        let dir = "/tmp/occ-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/kiosk.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if !dropIns.isEmpty { try FileManager.default.createDirectory(atPath: path + ".d", withIntermediateDirectories: true) }
        for (name, body) in dropIns { try body.write(toFile: path + ".d/" + name, atomically: true, encoding: .utf8) }
        return path
    }

    /// The effective value `check-config` printed for a key, and where it said it came from.
    func line(_ out: String, _ key: String) -> (value: String, origin: String)? {
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix(key + " = ") }) else { return nil }
        let parts = line.dropFirst(key.count + 3).components(separatedBy: "  # ")
        return (parts[0].trimmingCharacters(in: .whitespaces), parts.last ?? "")
    }

    @Test func printsTheEffectiveSettingsWithWhereEachCameFrom() throws {
        let rows = try CLI.write("one\ntwo\n", to: "rows.txt")
        let metrics = CLI.temporaryPath("o.prom")
        let path = try config("content = \"\(rows)\"\nthreshold = 90\n",
                              dropIns: ["20-late.toml": "threshold = 120\n", "10-early.toml": "\nthreshold = 100\nflash = false\n",
                                        "30-skipped.toml~": "threshold = 1\n", ".hidden.toml": "threshold = 2\n",
                                        "40-metrics.toml": "metrics = \"\(metrics)\"\nrefresh-command = [\"sh\", \"-c\", \"echo x\"]\n"])
        let r = try CLI.run(["check-config", path])
        #expect(r.status == 0, "\(r.stderr)")
        // Drop-ins in name order, the later winning; backups and hidden files skipped.
        #expect(line(r.stdout, "threshold")?.value == "120")
        #expect(line(r.stdout, "threshold")?.origin == "\(path).d/20-late.toml:1")
        #expect(line(r.stdout, "flash")?.value == "false")
        #expect(line(r.stdout, "flash")?.origin == "\(path).d/10-early.toml:3")
        #expect(line(r.stdout, "content")?.value == "\"\(rows)\"")
        #expect(line(r.stdout, "content")?.origin == "\(path):1")
        #expect(line(r.stdout, "refresh-command")?.value == "[\"sh\", \"-c\", \"echo x\"]")
        #expect(line(r.stdout, "rotate")?.value == "0" && line(r.stdout, "rotate")?.origin == "default")
        #expect(line(r.stdout, "metrics")?.value == "\"\(metrics)\"")
        // Every setting has its line: as many as the keys an unknown key's message lists.
        let unknown = try CLI.run(["check-config", try config("no-such-key = 1\n")])
        let keys = try #require(unknown.stderr.components(separatedBy: "allowed keys: ").last).split(separator: ",")
        #expect(keys.count > 20)
        #expect(r.stdout.split(separator: "\n").count == keys.count + 1, "\(r.stdout)")
        // Settings with no value (worked out at start) are comments: the listing is TOML.
        #expect(r.stdout.contains("\n# font: DejaVu Sans, found via fontconfig  "), "\(r.stdout)")
    }

    @Test func eachProblemIsExit78WithTheFileAndLineOfItsKey() throws {
        func check(_ text: String, dropIns: [String: String] = [:], says expected: (String) -> String) throws {
            let path = try config(text, dropIns: dropIns)
            let r = try CLI.run(["check-config", path])
            #expect(r.status == 78, "\(text): \(r.stderr)")
            #expect(r.stderr.hasPrefix("overscroll: " + expected(path)), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        try check("flash = true\n", dropIns: ["10-x.toml": "\n\nno-such-key = 1\n"]) { "\($0).d/10-x.toml:3: unknown key 'no-such-key'" }
        try check("\ncontent = \"/nonexistent/rows.txt\"\n") { "\($0):2: content file '/nonexistent/rows.txt' cannot be read" }
        try check("refresh-command = \"no-such-program-here --now\"\n") { "\($0):1: refresh-command 'no-such-program-here' is not an executable file on PATH" }
        try check("font = \"\(CLI.packageRoot)/README.md\"\n") { "\($0):1: font '" }
        // A metrics file it cannot write is the window's warning, not a refusal (issue 52).
        let metrics = try CLI.run(["check-config", try config("metrics = \"/nonexistent/dir/o.prom\"\n")])
        #expect(metrics.status == 0 && metrics.stderr == "overscroll: warning: cannot write the metrics: cannot write /nonexistent/dir/o.prom.tmp: No such file or directory\n", "\(metrics.stderr)")
        let fifo = CLI.temporaryPath("rows.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        try check("\n\ncontent = \"\(fifo)\"\n") { "\($0):3: content file '\(fifo)' is a FIFO" }
    }

    @Test func aReplayWritesTheConfigsMetricsAtItsEnd() throws {
        let metrics = CLI.temporaryPath("replay.prom")
        let path = try config("metrics = \"\(metrics)\"\n")
        let trace = CLI.temporaryPath("trace.csv")
        let r = try CLI.run(["replay", "Assets/gestures/fling.txt", "--config", path, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let frames = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").count - 1
        #expect(text.contains("overscroll_frames_total \(frames)\n"), "\(frames)")
        #expect(text.contains("overscroll_frame_interval_seconds_count \(frames)\n"))
        #expect(text.contains("overscroll_build_info{version=\""))
        // A metrics file that cannot be written: the replay says so and exits 74.
        let bad = try config("metrics = \"/nonexistent/dir/o.prom\"\n")
        let failed = try CLI.run(["replay", "Assets/gestures/fling.txt", "--config", bad])
        #expect(failed.status == 74 && failed.stderr.contains("cannot write the metrics"), "\(failed.stderr)")
    }
}
