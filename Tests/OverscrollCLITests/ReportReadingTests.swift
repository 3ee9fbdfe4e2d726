import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `overscroll report` given summaries it cannot trust: impossible numbers and oversized
/// files refused in words, and the gate failing on a metric it cannot compare.
@Suite struct ReportReadingTests {
    static let script = "Assets/gestures/pull-to-refresh.txt"

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

    /// Issue 41 item 8: a NEW report with none of the gated metrics said "no regressions", exit 0.
    @Test(arguments: [false, true])
    func theGateFailsNamingAGatedMetricMissingFromEitherSide(fromBase: Bool) throws {
        // One run, and a copy of it without two gated metrics: every other figure the
        // same, so only the missing ones can fail the gate.
        let whole = try editedReport { _ in }
        let stripped = CLI.temporaryPath("stripped")
        try FileManager.default.copyItem(atPath: whole, toPath: stripped)
        let path = stripped + "/summary.json"
        var top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        top["interval_ms"] = nil
        top["one_percent_low_fps"] = nil
        try JSONSerialization.data(withJSONObject: top).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["report", fromBase ? stripped : whole, fromBase ? whole : stripped])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("gated metrics missing, so the gate fails: interval p50 (\(fromBase ? "base" : "new"))"), "\(r.stdout)")
        #expect(r.stdout.contains("1% low fps (\(fromBase ? "base" : "new"))"), "\(r.stdout)")
        #expect(!r.stdout.contains("no regressions"))
        #expect(try CLI.run(["report", whole, whole]).status == 0)
    }
}

/// A real report (a replay of a pull), its summary.json changed by `edit`.
func editedReport(_ edit: (inout [String: Any]) -> Void) throws -> String {
    let report = CLI.temporaryPath("report")
    #expect(try CLI.run(["replay", ReportReadingTests.script, "--report", report]).status == 0)
    let path = report + "/summary.json"
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    return report
}
