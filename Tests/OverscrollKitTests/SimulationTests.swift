import Foundation
import Testing
@testable import OverscrollKit

@Suite struct RubberBandTests {
    let band = RubberBand(coefficient: 0.55)

    @Test(arguments: [(10.0, 5.5), (50, 26.6), (100, 51.5), (200, 96.7), (400, 172.5), (800, 283.9)])
    func matchesTheIOSTable(x: Double, expected: Double) {
        #expect(abs(band.band(x, dimension: 800) - expected) < 0.05)
    }

    @Test func inverseRetracesExactly() {
        for x in stride(from: 0.0, through: 5000, by: 37.5) {
            let b = band.band(x, dimension: 800)
            #expect(abs(band.inverse(b, dimension: 800) - x) < 1e-6 * max(1, x))
        }
    }

    @Test func neverReachesOneViewport() {
        #expect(band.band(1e12, dimension: 800) < 800)
        #expect(band.inverse(800, dimension: 800).isFinite)
    }

    @Test func tracksAtTheCoefficientAtTheEdge() {
        #expect(abs(band.slope(0, dimension: 800) - 0.55) < 1e-12)
        let numeric = (band.band(100.001, dimension: 800) - band.band(99.999, dimension: 800)) / 0.002
        #expect(abs(band.slope(100, dimension: 800) - numeric) < 1e-6)
    }
}

@Suite struct FrictionTests {
    @Test func aThreeThousandPointFlingTravelsAboutFifteenHundred() {
        let f = FrictionSimulation(position: 0, velocity: 3000, decelerationRate: 0.998)
        #expect(abs(f.finalX - 1498.5) < 0.5)
        #expect(f.x(.infinity) == f.finalX)
        #expect(f.duration > 3.5 && f.duration < 5)
    }

    @Test(arguments: [0.001, 0.05, 0.3, 1.0, 2.5])
    func velocityIsTheDerivativeOfPosition(t: Double) {
        let f = FrictionSimulation(position: 20, velocity: -2400, decelerationRate: 0.998)
        let h = 1e-5
        #expect(abs((f.x(t + h) - f.x(t - h)) / (2 * h) - f.dx(t)) < 0.01)
    }

    @Test func decaysByTheRatePerMillisecond() {
        let f = FrictionSimulation(position: 0, velocity: 1000, decelerationRate: 0.998)
        #expect(abs(f.dx(0.001) / f.dx(0) - 0.998) < 1e-9)
    }

    @Test func timeAtXFindsTheEdge() throws {
        let f = FrictionSimulation(position: 0, velocity: 3000, decelerationRate: 0.998)
        let t = try #require(f.time(atX: 1000))
        #expect(abs(f.x(t) - 1000) < 1e-6)
        #expect(f.time(atX: 2000) == nil)
    }
}

@Suite struct SpringTests {
    @Test func settlesFromOneHundredPointsInUnderASecond() {
        let s = SpringSimulation(spring: .bounce, start: -100, end: 0, velocity: 0)
        #expect(s.settleTime > 0.6 && s.settleTime < 1.0)
        #expect(s.x(s.settleTime) == 0)
        #expect(s.dx(s.settleTime) == 0)
        #expect(abs(s.x(s.settleTime - 0.001)) < 0.26)   // snapping moves it by at most the tolerance
    }

    @Test(arguments: [0.5, 1.0, 1.5])
    func everyRegimeStartsWhereToldAndEndsAtRest(ratio: Double) {
        let spring = SpringDescription(mass: 1, stiffness: 100, dampingRatio: ratio)
        let s = SpringSimulation(spring: spring, start: 40, end: 10, velocity: 300)
        #expect(abs(s.x(0) - 40) < 1e-9)
        #expect(abs(s.dx(0) - 300) < 1e-6)
        #expect(s.isDone(s.settleTime) && !s.isDone(s.settleTime - 0.01))
        #expect(s.x(100) == 10 && s.dx(100) == 0)
        // Once done it stays within tolerance: sample past the settle time analytically.
        var t = s.settleTime
        while t < s.settleTime + 2 { #expect(s.isDone(t)); t += 0.013 }
    }

    @Test func criticallyDampedBounceOvershootsOnceAndComesBack() {
        let s = SpringSimulation(spring: .bounce, start: 0, end: 0, velocity: -2000)
        let peak = stride(from: 0.0, to: 1.0, by: 0.001).map { s.x($0) }.min()!
        // Critical damping peaks at t = 1/ω = 0.1 s with x = v/(ω e).
        #expect(abs(peak - (-2000 / (10 * M_E))) < 0.5)
        #expect(stride(from: 0.0, to: 2.0, by: 0.001).allSatisfy { s.x($0) <= 0 })
    }
}

@Suite struct BallisticTests {
    let profile = PhysicsProfile.ios

    @Test func flingInsideTheContentIsPureFriction() {
        let b = BallisticSimulation(position: 100, velocity: 1000, range: 0...5000, profile: profile)
        #expect(abs(b.restingPosition - (100 + 1000 / 2.002)) < 0.5)
    }

    @Test func flingIntoAnEdgeOvershootsAndSettlesOnIt() {
        let b = BallisticSimulation(position: 4800, velocity: 3000, range: 0...5000, profile: profile)
        let path = stride(from: 0.0, to: 4.0, by: 1.0 / 120).map { b.x($0) }
        let furthest = path.max()!
        #expect(furthest > 5000 && furthest < 5000 + 5000 / (10 * M_E) + 1)
        #expect(b.restingPosition == 5000)
        #expect(b.isDone(4.0))
    }

    @Test func theSpringGetsAtMostFiveThousandPointsPerSecond() {
        let b = BallisticSimulation(position: 4999, velocity: 8000, range: 0...5000, profile: profile)
        let furthest = stride(from: 0.0, to: 1.0, by: 0.0005).map { b.x($0) }.max()!
        #expect(furthest - 5000 < 5000 / (10 * M_E) + 0.5)
    }

    @Test func startingOverscrolledSpringsBackToTheNearestEdge() {
        let b = BallisticSimulation(position: -80, velocity: 0, range: 0...5000, profile: profile)
        #expect(b.x(0) == -80)
        #expect(b.restingPosition == 0)
    }
}
