import Testing
@testable import OverscrollKit

/// The banner after a failed refresh, through the model and its scene: words for the
/// person at the screen, the reason for the log, never over the spinner.
@Suite struct FailureBannerTests {
    /// 12:03:30 at model time 0.
    var model: OverscrollModel = {
        var c = OverscrollModel.Configuration(viewportWidth: 480, viewportHeight: 800, threshold: 100)
        c.wallClock = WallClock(start: 1_767_268_800 + 3 * 60 + 30, utcOffset: 0)
        return OverscrollModel(configuration: c, rows: (0..<100).map { "Row \($0)" })
    }()

    /// Pulls past the threshold from `t`, releases, and ends the refresh with `result` 1 s
    /// later; returns the time then.
    static func refresh(_ model: inout OverscrollModel, at t: Double, _ result: RefreshResult) throws -> Double {
        let finger = PointerID(1)
        var t = t
        model.step([TimedInput(time: t, event: .pointerDown(finger, x: 240, y: 100))], to: t)
        for i in 1...40 {
            t += 1.0 / 60
            model.step([TimedInput(time: t, event: .pointerMove(finger, x: 240, y: 100 + Double(i) * 12))], to: t)
        }
        model.step([TimedInput(time: t, event: .pointerUp(finger))], to: t)
        let request = try #require(model.refreshRequest)
        t += 1
        model.step([TimedInput(time: t, event: .refreshCompleted(generation: request.generation, result: result))], to: t)
        return t
    }

    @Test func itSaysTheRowsAreKeptHowOldTheyAreAndWhatToDo() throws {
        var model = self.model
        var t = try Self.refresh(&model, at: 40, .success(["New"]))          // rows from 12:04
        t = try Self.refresh(&model, at: t + 120, .failure("'sh' exited 2: oops"))
        let banner = try #require(model.banner)
        #expect(banner.message == "Couldn't refresh — showing rows from 12:04. Pull to try again.")
        // The reason is for the log (the model's report of the refresh), not the screen.
        #expect(model.lastRefresh?.ending == .failure("'sh' exited 2: oops"))
        #expect(!banner.message.contains("oops"))
    }

    @Test func itWaitsForTheSpinnerToGoStaysSixSecondsAndAPullPutsItAway() throws {
        var model = self.model
        var t = try Self.refresh(&model, at: 1, .failure("timeout"))
        let failedAt = t
        var shownFrom: Double?, shownUntil = 0.0
        while t < failedAt + 8 {
            let scene = Scene(model: model)
            // Never both: the banner is not drawn over the disc.
            #expect(scene.banner == nil || scene.indicator == nil, "at \(t)")
            if let banner = scene.banner {
                if shownFrom == nil { shownFrom = t; #expect(banner.opacity == 1) }
                shownUntil = t
            }
            t += 1.0 / 60
            model.step([], to: t)
        }
        let from = try #require(shownFrom)
        #expect(from > failedAt && from - failedAt <= model.refresh.configuration.finishDuration + 0.05)
        #expect(shownUntil - failedAt >= 5.9 && shownUntil - failedAt < 6.05)
        // A new pull while it shows: it goes as the spinner appears.
        var again = self.model
        t = try Self.refresh(&again, at: 1, .failure("timeout")) + 1
        again.step([], to: t)
        #expect(Scene(model: again).banner != nil)
        again.step([TimedInput(time: t, event: .pointerDown(PointerID(2), x: 240, y: 100))], to: t)
        for i in 1...20 {
            t += 1.0 / 60
            again.step([TimedInput(time: t, event: .pointerMove(PointerID(2), x: 240, y: 100 + Double(i) * 6))], to: t)
        }
        let scene = Scene(model: again)
        #expect(scene.indicator != nil && scene.banner == nil)
    }
}
