/// A fling within bounds, as on iOS: exponential friction while inside the content; if the
/// fling would leave it, friction runs until the edge and hands its velocity (capped) to a
/// spring that overshoots the edge and settles back on it. Starting out of bounds, it is
/// just the spring back to the nearest edge. This is Flutter's `BouncingScrollSimulation`.
public struct BallisticSimulation: Simulation {
    private let friction: FrictionSimulation?
    private let spring: SpringSimulation?
    /// When the spring takes over (0 when there is no friction phase).
    private let handoff: Double

    public init(position: Double, velocity: Double, range: ClosedRange<Double>, profile: PhysicsProfile) {
        let tolerance = profile.tolerance
        if position < range.lowerBound || position > range.upperBound {
            let edge = position < range.lowerBound ? range.lowerBound : range.upperBound
            friction = nil
            handoff = 0
            spring = SpringSimulation(spring: profile.spring, start: position, end: edge,
                                      velocity: velocity, tolerance: tolerance)
            return
        }
        let f = FrictionSimulation(position: position, velocity: velocity,
                                   decelerationRate: profile.decelerationRate, tolerance: tolerance)
        let edge: Double? = f.finalX < range.lowerBound ? range.lowerBound
            : f.finalX > range.upperBound ? range.upperBound : nil
        if let edge, let hit = f.time(atX: edge) {
            let cap = profile.maxSpringTransferVelocity
            let v = min(max(f.dx(hit), -cap), cap)
            friction = f
            handoff = hit
            spring = SpringSimulation(spring: profile.spring, start: edge, end: edge, velocity: v, tolerance: tolerance)
        } else {
            friction = f
            handoff = .infinity
            spring = nil
        }
    }

    public func x(_ t: Double) -> Double {
        if t < handoff, let friction { return friction.x(t) }
        return spring?.x(t - handoff) ?? friction?.x(t) ?? 0
    }

    public func dx(_ t: Double) -> Double {
        if t < handoff, let friction { return friction.dx(t) }
        return spring?.dx(t - handoff) ?? friction?.dx(t) ?? 0
    }

    public func isDone(_ t: Double) -> Bool {
        if t < handoff, let friction { return friction.isDone(t) }
        return spring?.isDone(t - handoff) ?? friction?.isDone(t) ?? true
    }

    /// Where the motion finally rests.
    public var restingPosition: Double { x(.infinity) }
}
