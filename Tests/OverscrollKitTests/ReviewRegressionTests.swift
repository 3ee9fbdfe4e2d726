import Testing
@testable import OverscrollKit
import RowSources

/// Edge cases found in review, each once a real defect.
@Suite struct ReviewRegressionTests {
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

    @Test func aWheelNotchDuringABounceDoesNotJump() throws {
        let samples = try replay("""
            down 240 150
            move 240 300 300ms
            up
            wait 50ms
            wheel 1
            wait 2s
            """, fps: 60)
        let moves = zip(samples.dropFirst(), samples).map { abs($0.offset - $1.offset) }
        #expect(moves.allSatisfy { $0 < 15 }, "\(moves.max()!)")
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

    @Test func absurdDurationsAreAScriptErrorNotACrash() {
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "down 0 0\nmove 0 1 99999999s") }
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "wait 2h") }
        #expect(throws: GestureScript.ParseError.self) { try GestureScript(parsing: "wait 3601s") }
    }
}
