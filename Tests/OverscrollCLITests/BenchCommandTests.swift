import Foundation
import Testing

/// overscroll-bench as CI runs it: from any directory, a short fuzz run.
@Suite struct BenchCommandTests {
    static let bench = (CLI.executable as NSString).deletingLastPathComponent + "/overscroll-bench"

    private func runBench(_ arguments: [String]) throws -> CLIResult {
        let elsewhere = CLI.temporaryPath("cwd")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        return try CLI.run([Self.bench] + arguments, through: Self.bench, in: elsewhere)
    }

    @Test func aShortFuzzRunPasses() throws {
        let r = try runBench(["fuzz", "--seed", "20261123", "--count", "60"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("fuzz: 60 scripts (seeds 20261123…20261182)") && r.stdout.contains(" 0 failures"))
    }

    @Test func theSameSeedGivesTheSameScript() throws {
        let a = try runBench(["fuzz", "--seed", "42", "--count", "1", "--verbose"])
        let b = try runBench(["fuzz", "--seed", "42", "--count", "1", "--verbose"])
        #expect(a.status == 0 && a.stdout.count > 40)
        #expect(a.stdout.split(separator: "\n").dropLast() == b.stdout.split(separator: "\n").dropLast())
    }

    @Test func itFindsItsAssetsFromAnyDirectory() throws {
        let r = try runBench(["frames", "--runs", "1", "--size", "120x200"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("benchmark.txt at 120x200"))
    }

    @Test func framesCanStartCold() throws {
        let r = try runBench(["frames", "--runs", "1", "--size", "120x200", "--evict-mib", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("each frame after 2 MiB written (cold caches)"))
        #expect(r.stdout.contains("cpu ms/frame p50 "))
    }

    /// The rotation benchmark plays each rotation and prints each frame's CPU figures to a
    /// tenth of a microsecond (a frame on the CPU path is 10-40 µs on a fast machine: a
    /// step of one microsecond moved a ratio by a tenth).
    @Test func rotationPrintsEachRotationToATenthOfAMicrosecond() throws {
        let r = try runBench(["rotation", "--runs", "1", "--size", "160x120", "--rotations", "0,90"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines: [[Substring]] = r.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        let rows = lines.filter { $0.count == 6 && ["0", "90"].contains($0[0]) }
        #expect(rows.count == 2, "\(r.stdout)")
        for row in rows {
            let p50 = try #require(Double(row[2])), mean = try #require(Double(row[3]))
            #expect(p50 > 0 && mean > 0, "\(r.stdout)")
            // Printed to a tenth of a microsecond (the figures behind it are the frames'
            // nanoseconds).
            let decimals = [row[2], row[3]].map { $0.split(separator: ".").last?.count ?? 0 }
            #expect(decimals == [4, 4], "\(r.stdout)")
        }
    }

    /// The gate script/test puts on the release build. A debug build boxes and copies
    /// where the optimizer does not (dozens of allocations a frame), so here it must fail
    /// a tight limit and pass a loose one.
    @Test func allocationsAtMostGatesTheFigure() throws {
        let tight = try runBench(["allocations", "--at-most", "0.05"])
        let figure = tight.stdout.split(separator: "\n").first { $0.hasPrefix("allocations: ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
        let perFrame = try #require(figure, "\(tight.stdout)")
        if perFrame > 0.05 {
            #expect(tight.status == 1)
            #expect(tight.stderr.contains("more than --at-most 0.05"), "\(tight.stderr)")
        } else {
            #expect(tight.status == 0)
        }
        let loose = try runBench(["allocations", "--at-most", String(perFrame * 2 + 1)])
        #expect(loose.status == 0, "\(loose.stderr)")
        let bad = try runBench(["allocations", "--at-most", "-1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--at-most"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let r = try runBench(["fuzz", "--count", "0"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--count"))
        let cold = try runBench(["frames", "--evict-mib", "-1"])
        #expect(cold.status == 64)
        #expect(cold.stderr.contains("--evict-mib"))
    }
}
