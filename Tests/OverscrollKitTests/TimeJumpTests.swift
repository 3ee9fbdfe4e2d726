import Testing
@testable import OverscrollKit
import RowSources

/// The app was stopped (SIGSTOP, a suspend) while refresh work ran: when it wakes, a
/// result that is already waiting counts, whatever the clock says about the deadline.
@Suite struct TimeJumpTests {
    /// Pulls past the threshold and lets go; returns the model refreshing and its request.
    private func refreshing(timeout: Double) throws -> (OverscrollModel, OverscrollModel.RefreshRequest) {
        var model = makeModel(timeout: timeout)
        let finger = PointerID(1)
        model.step([TimedInput(time: 0, event: .pointerDown(finger, x: 240, y: 100))], to: 0)
        for i in 1...40 {
            let t = Double(i) * 0.016
            model.step([TimedInput(time: t, event: .pointerMove(finger, x: 240, y: 100 + Double(i) * 12))], to: t)
        }
        model.step([TimedInput(time: 0.7, event: .pointerUp(finger))], to: 0.7)
        let request = try #require(model.refreshRequest)
        #expect(model.refresh.isRefreshing)
        return (model, request)
    }

    @Test func aResultWaitingWhenTheAppWakesKeepsItsRowsEvenPastTheDeadline() throws {
        var (model, request) = try refreshing(timeout: 2)
        let inbox = RefreshInbox()
        let rowsBefore = model.rows.count
        // Real work finished while the app was stopped: it carries no time of its own.
        RefreshJob(generation: request.generation, startTime: request.startTime, inbox: inbox)
            .complete(.success(["fresh 1", "fresh 2"]))
        // The first frame after waking is 20 s later, far past the 2 s deadline.
        var inputs: [TimedInput] = []
        let effects = model.frame(&inputs, completions: inbox.take(dueBy: 20.7), to: 20.7)
        #expect(effects.events.contains(.refreshEnd) && effects.refreshEnded?.ending == .success(rows: 2))
        #expect(!effects.events.contains(.refreshError))
        #expect(model.rows.count == rowsBefore + 2)
        #expect(model.rows.first?.text == "fresh 1")
    }

    @Test func withNoResultWaitingTheJumpTimesTheRefreshOut() throws {
        var (model, _) = try refreshing(timeout: 2)
        let rowsBefore = model.rows.count
        model.step([], to: 20.7)
        #expect(model.events.contains(.refreshError))
        #expect(model.rows.count == rowsBefore)
    }
}

/// The system clock stepped under a running kiosk (a board without a battery-backed clock
/// boots years behind; NTP sets it later): the status line tells times on the new clock.
@Suite struct WallClockStepTests {
    @Test func theStatusLineFollowsAStepOfTheSystemClock() {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        // Booted believing it was 2019-01-01 00:00 UTC.
        c.wallClock = WallClock(start: 1_546_300_800, utcOffset: 0)
        var model = OverscrollModel(configuration: c, rows: ["a", "b"])
        model.advance(to: 600)
        #expect(model.status.pullLine.contains("updated 00:00"), "\(model.status.pullLine)")
        // NTP answers: model time 0 was really 2026-11-28 09:30 UTC.
        model.wallClockChanged(to: WallClock(start: 1_795_772_000 - 600, utcOffset: 0))
        let expected = WallClock(start: 1_795_772_000 - 600, utcOffset: 0).clockTime(at: 0)
        #expect(expected != "00:00")
        #expect(model.status.pullLine.contains("updated \(expected)"), "\(model.status.pullLine)")
        #expect(model.configuration.wallClock.start == 1_795_772_000 - 600)
    }
}
