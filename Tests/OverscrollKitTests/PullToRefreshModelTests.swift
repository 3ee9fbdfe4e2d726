import Testing
@testable import OverscrollKit
import RowSources

/// Pull-to-refresh through the whole model, driven by gesture scripts as replay drives it.
@Suite struct PullToRefreshModelTests {
    let pull = """
        down 240 150
        move 240 550 700ms
        wait 200ms
        up
        wait 4s
        """

    func frames(_ samples: [FrameSample], with event: FrameEvents) -> [FrameSample] {
        samples.filter { $0.events.contains(event) }
    }

    @Test func aPullPastTheThresholdRefreshesOnceAndRevealsTheNewRows() throws {
        let samples = try replay(pull, fps: 60)
        #expect(frames(samples, with: .feedback).count == 1)
        #expect(frames(samples, with: .refreshStart).count == 1)
        #expect(frames(samples, with: .refreshEnd).count == 1)
        let start = try #require(frames(samples, with: .refreshStart).first)
        let end = try #require(frames(samples, with: .refreshEnd).first)
        // The demo source completes 1.5 s after the release, on the virtual clock.
        #expect(abs(end.time - start.time - 1.5) < 1.0 / 60 + 1e-9)
        // While refreshing the list rests open at the indicator's height.
        let resting = samples.filter { $0.state == "refreshing" && $0.time > start.time + 1.2 }
        #expect(!resting.isEmpty && resting.allSatisfy { $0.offset == -RefreshController.Configuration.restingExtent })
        let last = try #require(samples.last)
        #expect(last.rows == 103 && last.offset == 0 && last.velocity == 0 && last.state == "idle")
    }

    @Test func releasingShortOfTheThresholdCancels() throws {
        let samples = try replay("down 240 150\nmove 240 300 300ms\nup\nwait 2s", fps: 60)
        #expect(samples.allSatisfy { $0.events.isEmpty })
        #expect(samples.contains { $0.state == "pulling" })
        #expect(samples.last?.offset == 0 && samples.last?.rows == 100)
    }

    @Test func aFlingIntoTheTopNeverArmsOrRefreshes() throws {
        let samples = try replay("""
            wheel 600
            down 240 200
            move 240 700 60ms
            up
            wait 3s
            """, fps: 60)
        #expect(samples.contains { $0.offset < -20 })          // it did bounce past the top
        #expect(samples.allSatisfy { $0.events.isEmpty && ($0.state == "idle" || $0.state == "pulling") })
    }

    @Test func aSecondFingerDoesNotRearmOrRefreshTwice() throws {
        let samples = try replay("""
            down 240 100
            move 240 500 500ms
            finger 2 down 100 520
            finger 2 move 100 540 100ms
            up
            finger 2 move 100 200 400ms
            finger 2 move 100 560 400ms
            finger 2 up
            wait 4s
            """, fps: 60)
        #expect(frames(samples, with: .feedback).count == 2)   // armed, disarmed by pushing back, armed again
        #expect(frames(samples, with: .refreshStart).count == 1)
        // The refresh starts when the last finger lifts, not the first.
        #expect(frames(samples, with: .refreshStart).first!.time >= 1.4 - 1e-9)
    }

    @Test func aPullDuringARefreshDoesNotStartAnother() throws {
        let samples = try replay("""
            down 240 150
            move 240 550 600ms
            up
            wait 300ms
            down 240 150
            move 240 600 500ms
            up
            wait 4s
            """, fps: 60)
        #expect(frames(samples, with: .refreshStart).count == 1)
        #expect(frames(samples, with: .feedback).count == 1)
    }

    @Test func aFailingSourceShowsTheErrorAndKeepsTheRows() throws {
        let samples = try replay(pull, fps: 60, source: FailingSource())
        #expect(frames(samples, with: .refreshError).count == 1)
        #expect(frames(samples, with: .refreshEnd).isEmpty)
        #expect(samples.last?.rows == 100 && samples.last?.offset == 0)
    }

    @Test func aHangingSourceTimesOut() throws {
        let samples = try replay(pull, fps: 60, model: makeModel(timeout: 2), source: HangingSource())
        let start = try #require(frames(samples, with: .refreshStart).first)
        let error = try #require(frames(samples, with: .refreshError).first)
        #expect(abs(error.time - start.time - 2) < 1.0 / 60 + 1e-9)
        #expect(samples.last?.state == "idle" && samples.last?.offset == 0)
    }

    @Test func aSourceThatCompletesTwiceCountsOnce() throws {
        let samples = try replay(pull, fps: 60, source: DoubleSource())
        #expect(frames(samples, with: .refreshEnd).count == 1)
        #expect(frames(samples, with: .refreshError).isEmpty)
        #expect(samples.last?.rows == 101)
    }

    @Test func theThresholdIsMeasuredOnTheVisiblePull() throws {
        // With --threshold 50 a 120 pt finger pull (≈ 63 pt visible) arms; with 80 it doesn't.
        let script = "down 240 100\nmove 240 220 300ms\nwait 100ms\nup\nwait 3s"
        let low = try replay(script, fps: 60, model: makeModel(threshold: 50))
        let high = try replay(script, fps: 60, model: makeModel(threshold: 80))
        #expect(low.contains { $0.events.contains(.refreshStart) })
        #expect(!high.contains { $0.events.contains(.feedback) })
    }

    @Test(arguments: stride(from: 100, through: 130, by: 1).map { $0 })
    func theWatchdogFiresWhateverTheStartTimeRoundsTo(waitMs: Int) throws {
        // (since + timeout) − since can round just below the timeout; the tick at the
        // deadline must still end the refresh instead of spinning.
        let samples = try replay("""
            down 240 150
            move 240 550 700ms
            wait \(waitMs)ms
            up
            wait 3s
            """, fps: 60, model: makeModel(timeout: 1), source: DemoRefreshSource(duration: 5))
        #expect(samples.contains { $0.events.contains(.refreshError) })
        #expect(samples.last?.state == "idle")
    }

    /// A finger holding the list while its refresh ends: after the lift the list springs
    /// back from where it was; it is not thrown.
    @Test func holdingTheListWhileTheRefreshEndsIsNotAFling() throws {
        let samples = try replay("""
            down 240 100
            move 240 600 600ms
            up
            wait 300ms
            down 240 300
            move 240 340 800ms
            wait 600ms
            move 240 341 40ms
            up
            wait 2s
            """, fps: 60, source: DemoRefreshSource(duration: 1))
        let end = try #require(samples.firstIndex { $0.events.contains(.refreshEnd) })
        let lift = try #require(samples.lastIndex { $0.time <= 3.0 })
        #expect(end < lift)        // the refresh ended while the finger held the list
        // After the lift the list springs back from where it was; it is not thrown.
        let after = samples[(lift + 1)...]
        #expect(after.allSatisfy { abs($0.velocity) < 400 })
        let moves = zip(after.dropFirst(), after).map { abs($0.offset - $1.offset) }
        #expect(moves.allSatisfy { $0 < 8 }, "\(moves.prefix(10))")
    }

    @Test func catchingABouncePastTheThresholdNeitherArmsNorRefreshes() throws {
        // A hard fling to the top overshoots well past the 120 pt threshold; a tap then
        // stops it there. The finger never crossed the line.
        let samples = try replay("""
            wheel 2000
            down 240 100
            move 240 700 60ms
            up
            wait 300ms
            down 240 400
            move 240 402 16ms
            up
            wait 3s
            """, fps: 60)
        #expect(samples.contains { $0.offset < -120 })
        #expect(samples.allSatisfy { $0.events.isEmpty }, "\(samples.filter { !$0.events.isEmpty }.map(\.frame))")
    }

    /// A lift with a NaN time still lets the refresh time out and the list settle.
    @Test func aNaNTimestampCannotLeaveARefreshRunningForever() {
        var model = makeModel(timeout: 1)
        let finger = PointerID(1)
        model.step([TimedInput(time: 0, event: .pointerDown(finger, x: 0, y: 100))], to: 0)
        for i in 1...40 {
            model.step([TimedInput(time: Double(i) * 0.01, event: .pointerMove(finger, x: 0, y: 100 + Double(i) * 15))], to: Double(i) * 0.01)
        }
        model.step([TimedInput(time: .nan, event: .pointerUp(finger))], to: 0.5)
        #expect(model.refresh.isRefreshing)
        model.step([], to: 20)
        model.step([], to: 21)
        #expect(model.isSettled && model.scroll.offset == 0)
    }
}
