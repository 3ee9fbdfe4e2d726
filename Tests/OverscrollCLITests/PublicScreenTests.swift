import Foundation
import Testing

/// Issue 31's checks as a user meets them: the built program's replay and its trace.
@Suite struct PublicScreenTests {
    func replay(_ script: String, _ extra: [String] = []) throws -> Trace {
        let path = try CLI.write(script, to: "script.txt")
        let trace = CLI.temporaryPath("trace.csv")
        let result = try CLI.run(["replay", path, "--trace", trace] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try Trace(path: trace)
    }

    func times(_ t: Trace, _ event: String) -> [Double] {
        t.rows.indices.filter { (t.rows[$0]["events"] ?? "").split(separator: ";").contains(Substring(event)) }
            .map { t.double($0, "t_ms") }
    }

    @Test func aFingerWigglingAcrossTheThresholdTicksEachTimeAndFlashesAtMostOnceASecond() throws {
        // Down at y 100, then between y 400 and 250 every 100 ms.
        let wiggle = "down 240 100\n" + String(repeating: "wait 100ms\nmove 240 400\nwait 100ms\nmove 240 250\n", count: 8) + "up\nwait 3s\n"
        let t = try replay(wiggle)
        let feedback = times(t, "feedback"), flashes = times(t, "flash")
        #expect(feedback.count >= 7, "\(feedback)")
        #expect(!flashes.isEmpty && flashes.allSatisfy(feedback.contains))
        for (a, b) in zip(flashes, flashes.dropFirst()) { #expect(b - a > 1000, "flashes at \(a) and \(b) ms") }
        // With --no-flash the same crossings tick and nothing flashes.
        let dark = try replay(wiggle, ["--no-flash"])
        #expect(times(dark, "feedback") == feedback && times(dark, "flash").isEmpty)
    }

    @Test func aPlainPullFlashesOnce() throws {
        let t = try replay(try String(contentsOfFile: CLI.packageRoot + "/Assets/gestures/pull-to-refresh.txt", encoding: .utf8))
        #expect(times(t, "flash").count == 1 && times(t, "flash") == times(t, "feedback"))
    }

    @Test func aSlowTapSelectsItsRow() throws {
        let t = try replay("down 240 400\nwait 450ms\nup\nwait 100ms\n")
        // y 400 at rest is row 7 (56 pt rows).
        #expect(t.rows.last?["selected"] == "7")
        #expect(times(t, "tap").count == 1)
    }
}
