import Testing
@testable import OverscrollKit
import RowSources

/// The kiosk's timers on the model's clock: `refreshEvery` and `idleReset`, driven by
/// gesture scripts the way replay drives them.
@Suite struct UnattendedModelTests {
    func model(every: Double? = nil, idle: Double? = nil, rows: Int = 100) -> OverscrollModel {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.refreshEvery = every
        c.idleReset = idle
        return OverscrollModel(configuration: c, rows: (0..<rows).map { "Row \($0)" })
    }

    func starts(_ samples: [FrameSample]) -> [Double] {
        samples.filter { $0.events.contains(.refreshStart) }.map(\.time)
    }

    @Test func timedRefreshesAreCountedFromTheEndOfTheLastOne() throws {
        let samples = try replay("wait 9s", fps: 60, model: model(every: 2),
                                 source: DemoRefreshSource(duration: 0.5))
        let times = starts(samples)
        #expect(times.count == 3)
        for (time, expected) in zip(times, [2.0, 4.5, 7.0]) { #expect(abs(time - expected) < 1.0 / 60 + 1e-9) }
        // The rows update each time; at the top the spinner shows (the list glides open).
        #expect(samples.last?.rows == 109)
        #expect(samples.contains { $0.state == "refreshing" && $0.offset < -32 })
    }

    @Test func aTimedRefreshFollowsTheVirtualClockAtAnyFrameRate() throws {
        for fps in [30, 60, 144] {
            let times = starts(try replay("wait 5s", fps: fps, model: model(every: 2), source: DemoRefreshSource(duration: 0.5)))
            #expect(times.count == 2)
            #expect(abs(times[0] - 2.0) < 1.0 / Double(fps) + 1e-9)
            #expect(abs(times[1] - 4.5) < 1.0 / Double(fps) + 1e-9)
        }
    }

    @Test func aTimedRefreshWaitsForTheFingerToLift() throws {
        // A finger is down from 1.5 s to 3 s: the refresh due at 2 s starts at the lift.
        let script = "wait 1500ms\ndown 240 400\nmove 240 380 1500ms\nup\nwait 1s"
        let samples = try replay(script, fps: 60, model: model(every: 2), source: DemoRefreshSource(duration: 0.5))
        let times = starts(samples)
        #expect(times.count == 1)
        #expect(abs(times[0] - 3.0) < 1.0 / 60 + 1e-9)
    }

    @Test func aTimedRefreshNeverStacksOnARunningOne() throws {
        // The work hangs until its 3 s timeout: no second refresh starts meanwhile, and
        // the next is counted from the timeout (a failure, logged as a banner).
        var m = model(every: 1)
        m = OverscrollModel(configuration: { var c = m.configuration; c.refreshTimeout = 3; return c }(), rows: m.rows.map(\.text))
        // (A replay ends once the model settles, which a hanging refresh every second
        // never lets it do: look at the script's 6 s.)
        let samples = try replay("wait 6s", fps: 60, model: m, source: HangingSource()).filter { $0.time <= 6 }
        let times = starts(samples)
        #expect(times.count == 2)
        #expect(abs(times[0] - 1.0) < 1.0 / 60 + 1e-9)
        #expect(abs(times[1] - 5.0) < 1.0 / 60 + 1e-9)
        #expect(samples.filter { $0.events.contains(.refreshError) }.count == 1)
        #expect(samples.last?.rows == 100)
    }

    @Test func aPulledRefreshRestartsTheTimer() throws {
        let script = "wait 500ms\ndown 240 150\nmove 240 550 700ms\nwait 200ms\nup\nwait 4s"
        let samples = try replay(script, fps: 60, model: model(every: 2), source: DemoRefreshSource(duration: 0.5))
        let times = starts(samples)
        // Pulled at 1.4 s, ended 1.9 s; the timer's next is 3.9 s, not 2.0 s.
        #expect(times.count == 2)
        #expect(abs(times[0] - 1.4) < 1.0 / 60 + 1e-9)
        #expect(abs(times[1] - 3.9) < 1.0 / 60 + 1e-9)
    }

    /// Scrolls 500 pt into the list slowly (no fling), lets go at 1 s.
    let scrollIn = "down 240 700\nmove 240 200 1s\nwait 100ms\nup"

    @Test func anIdleListGlidesBackToTheTop() throws {
        let samples = try replay(scrollIn, fps: 60, model: model(idle: 1))
        let lift = 1.1
        let before = try #require(samples.last { $0.time <= lift + 0.5 })
        #expect(abs(before.offset - 500) < 1)
        // The reset starts a second after the last touch, and the glide ends within a second.
        #expect(samples.filter { $0.time > lift && $0.time < lift + 1 }.allSatisfy { $0.offset >= 499 })
        let home = try #require(samples.first { $0.time > lift && $0.offset == 0 && $0.velocity == 0 })
        #expect(home.time <= lift + 2.05)
        // The normal physics: the spring never overshoots past the top.
        #expect(samples.allSatisfy { $0.offset >= 0 })
        // The replay waited for it.
        #expect(samples.last?.offset == 0)
    }

    @Test func noIdleResetWithoutTheOption() throws {
        let samples = try replay(scrollIn + "\nwait 3s", fps: 60, model: model())
        #expect(abs((samples.last?.offset ?? 0) - 500) < 1)
    }

    @Test func theIdleResetNeverFiresUnderAFinger() throws {
        // Held still for 3 s after scrolling in: still there while held.
        let samples = try replay("down 240 700\nmove 240 200 1s\nwait 3s\nup\nwait 3s", fps: 60, model: model(idle: 1))
        #expect(samples.filter { $0.time < 4 }.allSatisfy { $0.time < 1 || abs($0.offset - 500) < 1 })
        #expect(samples.last?.offset == 0)
    }

    @Test func theIdleResetClearsTheBanner() throws {
        var m = model(idle: 1)
        m.handle(TimedInput(time: 0, event: .pointerDown(.mouse, x: 10, y: 10)))
        m.handle(TimedInput(time: 0.1, event: .pointerUp(.mouse)))
        m.banner = .init(message: "Server unreachable", since: 0.1)
        m.configuration.bannerDuration = 100
        m.advance(to: 1.0)
        #expect(m.banner != nil)
        #expect(m.nextTimer == 1.1)
        m.advance(to: 1.2)
        #expect(m.banner == nil)
        #expect(m.nextTimer == nil)
    }

    @Test func reconfiguringChangesTheTimersAndThresholdWithoutMovingTheList() throws {
        var m = model()
        m.advance(to: 1)
        #expect(m.nextTimer == nil)
        var c = m.configuration
        c.refreshEvery = 5
        c.threshold = 90
        c.refreshTimeout = 4
        m.reconfigure(c)
        #expect(m.nextTimer == 6)
        #expect(m.refresh.configuration.threshold == 90)
        #expect(m.refresh.configuration.timeout == 4)
        #expect(m.scroll.offset == 0 && m.rows.count == 100)
        m.replaceContent(["a", "b"], at: 2)
        #expect(m.rows.map(\.text) == ["a", "b"])
    }

    @Test func durationsTakeMinutesAndHours() {
        #expect(DurationFormat.parse("10m") == 600)
        #expect(DurationFormat.parse("2h") == 7200)
        #expect(DurationFormat.parse("250ms") == 0.25)
        #expect(DurationFormat.parse("m") == nil)
    }
}
