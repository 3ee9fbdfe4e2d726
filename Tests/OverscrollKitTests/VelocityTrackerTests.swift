import Testing
@testable import OverscrollKit

@Suite struct VelocityTrackerTests {
    @Test(arguments: [60.0, 90, 125, 240])
    func constantSpeedIsMeasuredExactlyAtAnyInputRate(rate: Double) {
        var tracker = VelocityTracker()
        let dt = 1 / rate
        for i in 0..<20 { tracker.add(time: 1 + Double(i) * dt, position: 500 - 1200 * Double(i) * dt) }
        let v = tracker.velocity(at: 1 + 19 * dt)
        #expect(abs(v - -1200) < 1e-6)
    }

    @Test func acceleratingMotionGivesTheLatestVelocity() {
        var tracker = VelocityTracker()
        // x = 3000 t², v(t) = 6000 t; samples every 8 ms up to t = 0.2.
        for i in 0...25 {
            let t = Double(i) * 0.008
            tracker.add(time: t, position: 3000 * t * t)
        }
        #expect(abs(tracker.velocity(at: 0.2) - 1200) < 1e-6)
    }

    @Test func aPauseBeforeLiftMeansNoFling() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(time: Double(i) * 0.008, position: Double(i) * 20) }
        #expect(tracker.velocity(at: 0.072 + 0.039) != 0)
        #expect(tracker.velocity(at: 0.072 + 0.041) == 0)
    }

    @Test func aGapStartsAfresh() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(time: Double(i) * 0.008, position: Double(i) * 40) }
        // 50 ms later the finger moves the other way slowly: old samples must not count.
        tracker.add(time: 0.122, position: 360)
        tracker.add(time: 0.130, position: 359)
        tracker.add(time: 0.138, position: 358)
        #expect(abs(tracker.velocity(at: 0.138) - -125) < 1e-6)
    }

    @Test func fewerThanThreeSamplesGiveZero() {
        var tracker = VelocityTracker()
        tracker.add(time: 0, position: 0)
        tracker.add(time: 0.008, position: 50)
        #expect(tracker.velocity(at: 0.008) == 0)
    }

    @Test func onlyTheLastHundredMillisecondsCount() {
        var tracker = VelocityTracker(capacity: 40)
        // Slow for 200 ms, then fast for 100 ms at 125 Hz.
        var x = 0.0, t = 0.0
        while t < 0.2 { tracker.add(time: t, position: x); x += 0.8; t += 0.008 }
        for _ in 0..<13 { tracker.add(time: t, position: x); x += 16; t += 0.008 }
        #expect(abs(tracker.velocity(at: t - 0.008) - 2000) < 1)
    }

    @Test func garbageAndDisorderStayFinite() {
        var tracker = VelocityTracker()
        tracker.add(time: 1, position: 0)
        tracker.add(time: .nan, position: 5)
        tracker.add(time: 0.5, position: .infinity)
        tracker.add(time: 0.9, position: 10)
        tracker.add(time: 1.0, position: 20)
        #expect(tracker.velocity(at: 1).isFinite)
    }
}
