/// A motion that is a pure function of time, in the style of Flutter's `Simulation`.
///
/// Times are seconds since the motion started. Because nothing is integrated frame by
/// frame, the same motion evaluated at 30, 60 or 144 Hz passes through the same points:
/// frame-rate independence is a property of the type, not of the caller's care.
public protocol Simulation: Sendable {
    /// Position at `t` (points). Once `isDone(t)`, this is exactly the resting position.
    func x(_ t: Double) -> Double
    /// Velocity at `t` (points per second). Once `isDone(t)`, exactly zero.
    func dx(_ t: Double) -> Double
    /// Whether the motion has come to rest at `t`. Monotonic: once done, done for ever.
    func isDone(_ t: Double) -> Bool
}

/// When a motion counts as settled: closer than `distance` to where it rests and slower
/// than `velocity`, at which point it snaps to rest. A quarter point is below what a person
/// can see even at 2x; 5 pt/s is under a tenth of a point per frame at 60 Hz.
public struct Tolerance: Sendable, Equatable {
    public var distance: Double
    public var velocity: Double

    public init(distance: Double = 0.25, velocity: Double = 5) {
        self.distance = distance
        self.velocity = velocity
    }
}
