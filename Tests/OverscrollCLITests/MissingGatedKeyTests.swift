import Foundation
import Testing

/// `overscroll report BASE NEW` with one gated key left out of a summary.json: the metric
/// is MISSING and named, the gate fails (1), the rest is compared; the file is not
/// "corrupt" (65) for it (#47: one missing percentile once gave "corrupt").
@Suite struct MissingGatedKeyTests {
    /// A finished replay's report, made once for the suite's cases.
    static let whole: String = {
        let dir = CLI.temporaryPath("whole")
        _ = try? CLI.run(["replay", "Assets/gestures/pull-to-refresh.txt", "--report", dir])
        return dir
    }()

    /// A copy of `whole` whose summary.json lacks `path` ("interval_ms.p95", "janky_frames").
    static func without(_ path: String) throws -> String {
        let copy = CLI.temporaryPath("without")
        try FileManager.default.copyItem(atPath: whole, toPath: copy)
        let file = URL(fileURLWithPath: copy + "/summary.json")
        var top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            var block = try #require(top[parts[0]] as? [String: Any], "\(parts[0])")
            #expect(block[parts[1]] != nil, "\(path) is not in the report to take out")
            block[parts[1]] = nil
            top[parts[0]] = block
        } else {
            #expect(top[path] != nil, "\(path) is not in the report to take out")
            top[path] = nil
        }
        try JSONSerialization.data(withJSONObject: top).write(to: file)
        return copy
    }

    @Test(arguments: [("interval_ms.p95", "interval p95"), ("interval_ms.p50", "interval p50"),
                      ("cpu_ms.p99", "cpu p99"), ("latency_ms.p50", "latency p50"),
                      ("janky_frames", "janky frames"), ("one_percent_low_fps", "1% low fps")])
    func oneMissingGatedKeyIsMissingNotCorrupt(key: String, metric: String) throws {
        let stripped = try Self.without(key)
        for fromBase in [false, true] {
            let r = try CLI.run(["report", fromBase ? stripped : Self.whole, fromBase ? Self.whole : stripped])
            #expect(r.status == 1, "\(key): \(r.stdout)\(r.stderr)")
            #expect(!r.stderr.contains("corrupt"), "\(key): \(r.stderr)")
            let row = r.stdout.split(separator: "\n").first { $0.hasPrefix(metric + " ") }
            #expect(row?.hasSuffix("MISSING") == true, "\(key): \(r.stdout)")
            #expect(r.stdout.contains("1 gated metric missing, so the gate fails: \(metric) (\(fromBase ? "base" : "new"))"), "\(r.stdout)")
            // Every other gated metric is still compared: equal, so no regression.
            #expect(!r.stdout.contains("REGRESSION"), "\(r.stdout)")
        }
        // The report alone prints, with "-" where the key was.
        let alone = try CLI.run(["report", stripped])
        #expect(alone.status == 0, "\(key): \(alone.stderr)")
        #expect(!alone.stdout.contains("nan"), "\(alone.stdout)")
        #expect(try CLI.run(["report", Self.whole, Self.whole]).status == 0)
    }

    /// A key the gate does not read (p90) left out is still a corrupt file: the shape is
    /// wrong, and nothing is compared on a guess.
    @Test func anUngatedKeyLeftOutIsStillCorrupt() throws {
        let stripped = try Self.without("interval_ms.p90")
        let r = try CLI.run(["report", Self.whole, stripped])
        #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("is corrupt: missing interval_ms.p90"), "\(r.stderr)")
    }
}
