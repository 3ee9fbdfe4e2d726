import Glibc

/// Exponential velocity decay, UIScrollView style: the velocity is multiplied by
/// `decelerationRate` every millisecond, in closed form.
///
///     v(t) = v0 · e^(k t),  x(t) = x0 + v0 · (e^(k t) − 1) / k,  k = 1000 · ln(rate)
///
/// A 3000 pt/s fling at 0.998 travels v0 / |k| ≈ 1499 pt.
public struct FrictionSimulation: Simulation {
    public let start: Double
    public let velocity: Double
    /// Decay constant per second; negative.
    public let k: Double
    /// Time at which the motion is within the distance tolerance of `finalX`, where it
    /// snaps: the remaining distance of a decay is |v| / |k|, so this is when
    /// |v| = distance · |k| (0.5 pt/s for iOS's rate).
    public let duration: Double

    public init(position: Double, velocity: Double, decelerationRate: Double, tolerance: Tolerance = Tolerance()) {
        precondition(decelerationRate > 0 && decelerationRate < 1, "deceleration rate must be in (0, 1)")
        self.start = position
        self.velocity = velocity
        self.k = 1000 * log(decelerationRate)
        let speed = abs(velocity)
        let stopSpeed = tolerance.distance * abs(k)
        self.duration = speed > stopSpeed ? log(stopSpeed / speed) / k : 0
    }

    /// Where the motion would come to rest with no boundary in the way.
    public var finalX: Double { start - velocity / k }

    public func x(_ t: Double) -> Double {
        if t >= duration { return finalX }
        return start + velocity * (exp(k * max(0, t)) - 1) / k
    }

    public func dx(_ t: Double) -> Double {
        if t >= duration { return 0 }
        return velocity * exp(k * max(0, t))
    }

    public func isDone(_ t: Double) -> Bool { t >= duration }

    /// The first time the motion passes `position`, or nil if it never gets there.
    public func time(atX position: Double) -> Double? {
        let ratio = 1 + k * (position - start) / velocity
        guard velocity != 0, ratio > 0 else { return nil }
        let t = log(ratio) / k
        return t >= 0 && t.isFinite ? t : nil
    }
}
