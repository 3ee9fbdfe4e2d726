import Glibc

/// Mass, stiffness and damping of a spring; `dampingRatio` 1 is critical damping.
public struct SpringDescription: Sendable, Equatable {
    public var mass: Double
    public var stiffness: Double
    public var dampingRatio: Double

    public init(mass: Double = 1, stiffness: Double = 100, dampingRatio: Double = 1) {
        self.mass = mass
        self.stiffness = stiffness
        self.dampingRatio = dampingRatio
    }

    /// UIKit's scroll-view bounce: critically damped, ω0 = 10 rad/s.
    public static let bounce = SpringDescription(mass: 1, stiffness: 100, dampingRatio: 1)
}

/// A damped spring pulling `x` towards `end`, in closed form.
///
/// The three regimes (under-, critically and over-damped) are solved analytically, so a
/// frame at any time sees the exact position. `isDone` switches at a settle time computed
/// once from an envelope that bounds the motion, so it is monotonic and the motion
/// provably stays within tolerance afterwards.
public struct SpringSimulation: Simulation {
    public let end: Double
    private let solution: Solution
    /// Time after which the spring is at rest at `end`.
    public let settleTime: Double

    private enum Solution: Sendable {
        /// x = (c1 + c2 t) e^(r t)
        case critical(r: Double, c1: Double, c2: Double)
        /// x = c1 e^(r1 t) + c2 e^(r2 t)
        case overdamped(r1: Double, r2: Double, c1: Double, c2: Double)
        /// x = e^(r t) (c1 cos ωt + c2 sin ωt)
        case underdamped(r: Double, w: Double, c1: Double, c2: Double)
    }

    public init(spring: SpringDescription, start: Double, end: Double, velocity: Double, tolerance: Tolerance = Tolerance()) {
        self.end = end
        let x0 = start - end
        let m = spring.mass, k = spring.stiffness
        let c = spring.dampingRatio * 2 * (m * k).squareRoot()
        let discriminant = c * c - 4 * m * k
        let solution: Solution
        if abs(discriminant) < 1e-9 * c * c {
            let r = -c / (2 * m)
            solution = .critical(r: r, c1: x0, c2: velocity - r * x0)
        } else if discriminant > 0 {
            let root = discriminant.squareRoot()
            let r1 = (-c - root) / (2 * m), r2 = (-c + root) / (2 * m)
            let c2 = (velocity - r1 * x0) / (r2 - r1)
            solution = .overdamped(r1: r1, r2: r2, c1: x0 - c2, c2: c2)
        } else {
            let w = (4 * m * k - c * c).squareRoot() / (2 * m)
            let r = -c / (2 * m)
            solution = .underdamped(r: r, w: w, c1: x0, c2: (velocity - r * x0) / w)
        }
        self.solution = solution
        self.settleTime = Self.settleTime(solution, tolerance)
    }

    public func x(_ t: Double) -> Double {
        if t >= settleTime { return end }
        return end + Self.offset(solution, max(0, t))
    }

    public func dx(_ t: Double) -> Double {
        if t >= settleTime { return 0 }
        return Self.velocity(solution, max(0, t))
    }

    public func isDone(_ t: Double) -> Bool { t >= settleTime }

    private static func offset(_ s: Solution, _ t: Double) -> Double {
        switch s {
        case let .critical(r, c1, c2): return (c1 + c2 * t) * exp(r * t)
        case let .overdamped(r1, r2, c1, c2): return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        case let .underdamped(r, w, c1, c2): return exp(r * t) * (c1 * cos(w * t) + c2 * sin(w * t))
        }
    }

    private static func velocity(_ s: Solution, _ t: Double) -> Double {
        switch s {
        case let .critical(r, c1, c2): return (c2 + r * (c1 + c2 * t)) * exp(r * t)
        case let .overdamped(r1, r2, c1, c2): return c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)
        case let .underdamped(r, w, c1, c2):
            return exp(r * t) * ((c1 * r + c2 * w) * cos(w * t) + (c2 * r - c1 * w) * sin(w * t))
        }
    }

    /// Upper bounds on |x − end| and |dx| that only decrease after their peak; the first
    /// time both are inside the tolerance is a time after which the spring never leaves it.
    private static func envelope(_ s: Solution, _ t: Double) -> (distance: Double, speed: Double) {
        switch s {
        case let .critical(r, c1, c2):
            let e = exp(r * t)
            return ((abs(c1) + abs(c2) * t) * e, (abs(c2) + abs(r) * (abs(c1) + abs(c2) * t)) * e)
        case let .overdamped(r1, r2, c1, c2):
            return (abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t),
                    abs(c1 * r1) * exp(r1 * t) + abs(c2 * r2) * exp(r2 * t))
        case let .underdamped(r, w, c1, c2):
            let amplitude = (c1 * c1 + c2 * c2).squareRoot() * exp(r * t)
            return (amplitude, amplitude * (r * r + w * w).squareRoot())
        }
    }

    private static func settleTime(_ s: Solution, _ tolerance: Tolerance) -> Double {
        // Step in 1 ms increments; at most 20 s. Bounds are monotone past their peak, and
        // the peak of (a + b t) e^(rt) is before 1/|r|, so scanning forward is exact enough.
        let step = 0.001
        var t = 0.0
        while t < 20 {
            let (d, v) = envelope(s, t)
            if d < tolerance.distance && v < tolerance.velocity { return t }
            t += step
        }
        return 20
    }
}
