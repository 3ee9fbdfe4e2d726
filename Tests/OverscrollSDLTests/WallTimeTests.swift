import Foundation
import FrameReports
import OverscrollKit
import Synchronization
import Testing
@testable import OverscrollSDL

/// Issue 52, items 3 and 4: every time of day the program tells is in the zone in force,
/// and every wall-clock fact it publishes follows a step of the clock. One `WallTime` is
/// "now"; these tests step it, and point `TZ` at a fixed copy of Europe/Berlin.
extension SDLSuite { @Suite struct WallTimeTests {
    /// A wall clock a test sets, as NTP steps a board's.
    final class SteppedClock: Sendable {
        let seconds: Atomic<Int64>
        init(_ start: Double) { seconds = Atomic(Int64(start)) }
        func set(_ value: Double) { seconds.store(Int64(value), ordering: .relaxed) }
        var wall: WallTime { WallTime { [self] in Double(seconds.load(ordering: .relaxed)) } }
    }

    /// 2026's European changes: clocks forward at 01:00 UTC on 29 March, back at 01:00 UTC
    /// on 25 October.
    static let springForward = 1_774_746_000.0
    static let fallBack = 1_792_890_000.0

    /// Runs `body` with `TZ` naming a copy of Europe/Berlin (fixed: not the machine's).
    func inBerlin(_ body: () throws -> Void) throws {
        let zone = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"), "tzdata is needed")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-tz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try zone.write(to: URL(fileURLWithPath: dir + "/Berlin"))
        let old = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", ":" + dir + "/Berlin", 1)
        tzset()
        defer {
            if let old { setenv("TZ", old, 1) } else { unsetenv("TZ") }
            tzset()
        }
        try body()
    }

    @Test func theZonesOffsetIsTheOneInForceOnEitherSideOfBothChanges() throws {
        try inBerlin {
            var zone = LocalZone()
            #expect(zone.offset(at: Self.springForward - 1, monotonic: 0) == 3600)
            #expect(zone.offset(at: Self.springForward, monotonic: 0) == 7200)
            #expect(zone.offset(at: Self.fallBack - 1, monotonic: 0) == 7200)
            #expect(zone.offset(at: Self.fallBack, monotonic: 0) == 3600)
        }
    }

    /// Item 3: across the March change a refresh at 03:00 CEST said "updated 02:00" until
    /// a restart; across October's, a refresh at 02:00 CET said 03:00. The rows' time is
    /// told in the offset of when they came, also after the change.
    @Test(arguments: [(springForward, "01:30", "03:00"), (fallBack, "02:30", "02:00")])
    func aRefreshAfterADSTChangeIsToldInTheNewOffset(change: Double, before: String, after: String) throws {
        try inBerlin {
            let stepped = SteppedClock(change - 1800)
            var clock = LiveClock()
            clock.wall = stepped.wall
            let wallClock = clock.wallClock()
            var status = RefreshStatus(clock: wallClock, launchedAt: clock.frame())
            #expect(status.pullLine.hasSuffix("updated \(before)"), "\(status.pullLine)")
            // Half an hour on, past the change (the test moves the wall clock alone).
            stepped.set(change + 1)
            let next = clock.drifted(from: status.clock)
            let drifted = try #require(next)
            status.set(clock: drifted.clock, step: drifted.step)
            status.refreshed(at: clock.frame())
            #expect(status.pullLine.hasSuffix("updated \(after)"), "\(status.pullLine)")
        }
    }

    /// Item 3: a zone changed while running (here: only the offset it gives) is followed
    /// with no step: rows already shown keep the time they were told in.
    @Test func aNewOffsetIsANewClockWithNoStep() throws {
        try inBerlin {
            let stepped = SteppedClock(Self.springForward - 60)
            var clock = LiveClock()
            clock.wall = stepped.wall
            let start = clock.wallClock()
            #expect(start.utcOffset == 3600)
            let same = clock.drifted(from: start)
            #expect(same == nil)
            let other = clock.drifted(from: WallClock(start: start.start, utcOffset: 0))
            let moved = try #require(other)
            #expect(moved.clock.utcOffset == 3600 && moved.step == 0 && abs(moved.clock.start - start.start) < 0.05)
        }
    }

    /// Item 4: a board that boots in 1970 and is stepped by NTP published
    /// `overscroll_start_time_seconds` in 1970 for the whole run. Now told on the clock as
    /// it is at each write.
    @Test func theMetricsStartTimeFollowsAStepOfTheClock() throws {
        let stepped = SteppedClock(3600)    // 1970-01-01 01:00 UTC
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-\(UUID().uuidString).prom").path
        let writer = MetricsWriter(path: path, refreshPeriod: 1.0 / 60, wall: stepped.wall, warn: { _ in })
        writer.start()
        #expect(try Self.startTime(path) < 7200)
        stepped.set(1_795_000_000)            // NTP answered: late 2026
        writer.finish()
        let start = try Self.startTime(path)
        #expect(start > 1_794_999_000 && start <= 1_795_000_000, "\(start)")
    }

    /// Item 4: summary.json's start time follows the step too.
    @Test func theReportsStartTimeFollowsAStepOfTheClock() throws {
        let stepped = SteppedClock(3600)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overscroll-report-\(UUID().uuidString)").path
        let metadata = ReportMetadata(programVersion: "test", videoDriver: "x", renderDriver: "x",
                                      windowPoints: .init(width: 1, height: 1), windowPixels: .init(width: 1, height: 1),
                                      refreshPeriodMs: 16.7, vsync: false, startTime: ReportMetadata.timestamp(stepped.wall.now()),
                                      mode: "live", fps: nil, script: nil)
        let writer = try ReportWriter(directory: dir, metadata: metadata, wall: stepped.wall)
        stepped.set(1_795_000_000)
        try writer.finish(profiler: FrameProfiler(refreshPeriod: 1.0 / 60))
        let summary = try String(contentsOfFile: dir + "/summary.json", encoding: .utf8)
        #expect(summary.contains("\"start_time\" : \"2026-11-18T") || summary.contains("\"start_time\":\"2026-11-18T"), "\(summary.prefix(400))")
    }

    static func startTime(_ path: String) throws -> Double {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("overscroll_start_time_seconds ") })
        return try #require(Double(line.split(separator: " ")[1]))
    }
} }
