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

/// The wall clock moved under a running kiosk: a step of the system clock (a board without a
/// battery-backed clock boots years behind; NTP sets it later), or stalls cut out of model
/// time (a starved kiosk at 5 fps). Times told from then on are on the new clock; a step
/// also moves the last update's time, which was told on the wrong clock, and a stall does not.
@Suite struct WallClockStepTests {
    static let booted = 1_546_300_800.0          // 2019-01-01 00:00 UTC, what the board believed
    static let real = 1_795_772_000.0 - 600      // model time 0 really was 2026-11-28 …

    func model() -> OverscrollModel {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800)
        c.wallClock = WallClock(start: Self.booted, utcOffset: 0)
        var model = OverscrollModel(configuration: c, rows: ["a", "b"])
        model.advance(to: 600)
        return model
    }

    @Test func aStepOfTheSystemClockMovesTheStatusLineWithIt() {
        var model = model()
        #expect(model.status.pullLine.contains("updated 00:00"), "\(model.status.pullLine)")
        model.wallClockChanged(to: WallClock(start: Self.real, utcOffset: 0), step: Self.real - Self.booted)
        let expected = WallClock(start: Self.real, utcOffset: 0).clockTime(at: 0)
        #expect(expected != "00:00")
        #expect(model.status.pullLine.contains("updated \(expected)"), "\(model.status.pullLine)")
        #expect(model.configuration.wallClock.start == Self.real)
    }

    @Test func aStallCutOutOfModelTimeMovesNothingAlreadyTold() {
        var model = model()
        // A refresh's time, told at model time 600 (00:10), then 9 minutes of stalls cut out
        // of model time: model time 0 now stands for a later instant.
        model.wallClockChanged(to: WallClock(start: Self.booted + 540, utcOffset: 0), step: 0)
        #expect(model.status.pullLine.contains("updated 00:00"), "\(model.status.pullLine)")
        // A new refresh is told on the corrected clock.
        var status = model.status
        status.refreshed(at: 600)
        #expect(status.pullLine.contains("updated 00:19"), "\(status.pullLine)")
    }
}
