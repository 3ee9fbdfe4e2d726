import Foundation
import Testing
@testable import FrameReports

/// A service's report directory across restarts, with a clock that is wrong at boot and
/// stepped later (a kiosk without a battery-backed clock): runs are kept by the order they
/// started, never by the time their names carry.
@Suite struct ReportRunsTests {
    static let year = 365.0 * 86_400
    static let now = 1_795_000_000.0    // late 2026

    func directory() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-runs-\(UUID().uuidString)").path
        return dir
    }

    func runs(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// Starts a run at `time` and leaves a report file in it, as a run does.
    @discardableResult
    func start(_ dir: String, at time: Double, keep: Int) throws -> String {
        let run = try ReportRuns.newRun(in: dir, keep: keep, startTime: time)
        try "frame\n".write(toFile: run + "/frames.csv", atomically: false, encoding: .utf8)
        return (run as NSString).lastPathComponent
    }

    @Test func aClockYearsBehindAtBootNeverDeletesThePreviousRun() throws {
        let dir = directory()
        // Two runs with a right clock, then boots with the clock years behind.
        let first = try start(dir, at: Self.now, keep: 2)
        let second = try start(dir, at: Self.now + 60, keep: 2)
        let behind = try start(dir, at: Self.now - 5 * Self.year, keep: 2)
        // Keeping 2: the newest started (behind) and the one before it (second) stay.
        #expect(runs(dir) == [second, behind].sorted(), "\(runs(dir)) after \(first), \(second), \(behind)")
        // The clock stepped forward (NTP answered), then another restart.
        let stepped = try start(dir, at: Self.now + 120, keep: 2)
        #expect(runs(dir) == [behind, stepped].sorted(), "\(runs(dir))")
    }

    @Test func aClockStepBackwardsDoesNotReorderRuns() throws {
        let dir = directory()
        var started: [String] = []
        for (i, offset) in [0.0, -Self.year, 3 * Self.year, -20 * Self.year, 1].enumerated() {
            started.append(try start(dir, at: Self.now + offset, keep: 3))
            #expect(runs(dir) == Array(started.suffix(3)).sorted(), "after run \(i): \(runs(dir))")
        }
    }

    @Test func namesSayTheOrderThenTheClocksTime() throws {
        #expect(ReportRuns.runName(sequence: 42, time: 1_764_083_045) == "000042-2025-11-25T15-04-05Z")
        #expect(ReportRuns.runName(sequence: 1_234_567, time: 0) == "1234567-1970-01-01T00-00-00Z")
        #expect(ReportRuns.isRunName("000042-2025-11-25T15-04-05Z"))
        #expect(ReportRuns.isRunName("2025-11-25T15-04-05Z-2"))        // an earlier version's
        for other in ["notes", "00042-2025-11-25T15-04-05Z", "000042-2025-11-25T15-04-05Z-2", "000042-", "2025-11-25T15-04-05"] {
            #expect(!ReportRuns.isRunName(other), "\(other)")
        }
    }

    @Test func runsAnEarlierVersionNamedArePrunedFirstAndOtherFilesStay() throws {
        let dir = directory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for legacy in ["2030-01-01T00-00-00Z", "2020-01-01T00-00-00Z", "2020-01-01T00-00-00Z-2"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + legacy, withIntermediateDirectories: false)
            try "x".write(toFile: dir + "/" + legacy + "/summary.json", atomically: false, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: false)
        let new = try start(dir, at: Self.now - Self.year, keep: 2)
        // The newest legacy run by name stays beside the new one; the others are gone.
        #expect(runs(dir) == ["2030-01-01T00-00-00Z", "mine", new].sorted(), "\(runs(dir))")
        #expect(new.hasPrefix("000001-"))
    }
}
