/// Every constant of the scroll feel in one place.
///
/// The scroll view asks its `ScrollPhysics` for the rubber band and for the motion after a
/// release; it holds no constant of its own. A different feel (Android's spline fling,
/// Flutter's clamping physics) is another type conforming to `ScrollPhysics`.
public protocol ScrollPhysics: Sendable {
    var profile: PhysicsProfile { get }
    /// Visible overscroll for a requested overscroll `x` past an edge of a `dimension` viewport.
    func overscroll(requested x: Double, dimension: Double) -> Double
    /// Inverse of `overscroll`: resume a drag that starts while already overscrolled.
    func requestedOverscroll(visible b: Double, dimension: Double) -> Double
    /// d(visible)/d(requested) at `x`, to carry a finger's velocity into the bounce.
    func overscrollSlope(requested x: Double, dimension: Double) -> Double
    /// The motion after a release (or any hand-off) at `position` with `velocity`.
    func ballistic(position: Double, velocity: Double, range: ClosedRange<Double>) -> any Simulation
}

/// The iOS feel. The rubber band is UIScrollView's closed form with c = 0.55, as reverse-
/// engineered from UIKit (Grant Paul, @chpwn; Apple publishes no source). Flutter's
/// `BouncingScrollPhysics` does not use it: its friction is applied per drag delta, not as
/// a closed form of the whole overscroll. Momentum keeps 0.998 of its speed per ms
/// (`UIScrollView.DecelerationRate.normal`, which Flutter's iOS simulation also takes).
public struct PhysicsProfile: ScrollPhysics, Equatable {
    /// Rubber-band coefficient c in b = (1 − 1/(x·c/d + 1))·d.
    public var rubberBandCoefficient = 0.55
    /// Momentum keeps this fraction of its velocity per millisecond.
    public var decelerationRate = 0.998
    /// The spring that bounces off an edge and pulls an overscroll back.
    public var spring = SpringDescription.bounce
    /// Releases slower than this do not fling.
    public var minFlingVelocity = 50.0
    /// Flings are clamped to this speed.
    public var maxFlingVelocity = 8000.0
    /// A fling that reaches an edge hands at most this speed to the spring.
    public var maxSpringTransferVelocity = 5000.0
    /// Velocity tracker: samples older than this (relative to the newest) are ignored.
    public var trackerHorizon = 0.100
    /// Velocity tracker: a gap longer than this between samples, or before lift, resets it.
    public var trackerMaxGap = 0.040
    /// Velocity tracker: fewer samples than this give zero velocity.
    public var trackerMinSamples = 3
    /// When a motion counts as settled.
    public var tolerance = Tolerance()

    public init() {}

    public static let ios = PhysicsProfile()

    public var profile: PhysicsProfile { self }

    private var band: RubberBand { RubberBand(coefficient: rubberBandCoefficient) }

    public func overscroll(requested x: Double, dimension: Double) -> Double {
        band.band(x, dimension: dimension)
    }

    public func requestedOverscroll(visible b: Double, dimension: Double) -> Double {
        band.inverse(b, dimension: dimension)
    }

    public func overscrollSlope(requested x: Double, dimension: Double) -> Double {
        band.slope(x, dimension: dimension)
    }

    public func ballistic(position: Double, velocity: Double, range: ClosedRange<Double>) -> any Simulation {
        BallisticSimulation(position: position, velocity: velocity, range: range, profile: self)
    }
}
