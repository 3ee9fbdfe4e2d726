/// The scroll model: where the content is, and how it moves. Pure Swift, no SDL, driven
/// by timestamped pointer events and evaluated at each frame's time.
///
/// Offsets follow UIKit: 0 rests at the top, positive scrolls into the content, negative
/// is pulled down past the top. `topInset` lets the refresh indicator hold the list open:
/// the resting range is `-topInset ... maxOffset`.
public struct ScrollView: Sendable {
    public enum Motion: Sendable {
        /// At rest, or held still by nothing.
        case resting
        /// A pointer drives the content.
        case dragging(Drag)
        /// A release, bounce or spring-back, evaluated in closed form from `start`.
        case animating(any Simulation, start: Double)
    }

    /// A drag is anchored: the content offset is a function of the driving pointer's
    /// position only, `resist(anchorOffset − (y − anchorY))`, so it is path-independent
    /// and pushing back retraces exactly.
    public struct Drag: Sendable {
        public var pointer: PointerID
        var anchorY: Double
        /// The un-resisted ("requested") offset when the anchor was taken.
        var anchorOffset: Double
        /// The current un-resisted offset.
        var requested: Double
    }

    public let physics: any ScrollPhysics
    public private(set) var viewportHeight: Double
    public private(set) var contentHeight: Double
    public private(set) var topInset: Double = 0
    public private(set) var offset: Double = 0
    public private(set) var velocity: Double = 0
    public private(set) var motion: Motion = .resting
    /// The latest time the model has seen; time never runs backwards inside it.
    public private(set) var now: Double = 0

    private var pointers = PointerSet()
    private var tracker: VelocityTracker

    /// Pointer coordinates beyond this many points are clamped: they can only come from a
    /// broken driver, and keeping them finite keeps every derived value finite.
    static let coordinateLimit = 1_000_000.0

    public init(viewportHeight: Double, contentHeight: Double, physics: any ScrollPhysics = PhysicsProfile.ios) {
        self.physics = physics
        self.viewportHeight = max(1, viewportHeight)
        self.contentHeight = max(0, contentHeight)
        self.tracker = VelocityTracker(profile: physics.profile)
    }

    // MARK: Readouts

    public var minOffset: Double { -topInset }
    public var maxOffset: Double { max(0, contentHeight - viewportHeight) }
    public var range: ClosedRange<Double> { minOffset...max(minOffset, maxOffset) }

    public var isDragging: Bool {
        if case .dragging = motion { return true }
        return false
    }

    public var isAtRest: Bool {
        if case .resting = motion { return true }
        return false
    }

    /// How far the content is pulled down past the top (0 when not), after the rubber band.
    public var pull: Double { max(0, -offset) }

    /// How far the content is pulled past its resting range on either side.
    public var overscroll: Double {
        offset < minOffset ? minOffset - offset : offset > range.upperBound ? offset - range.upperBound : 0
    }

    // MARK: Pointer input

    public mutating func pointerDown(_ id: PointerID, y: Double, at time: Double) {
        advance(to: time)
        guard y.isFinite, pointers.insert(id, y: clampCoordinate(y)) else { return }
        if case .dragging = motion { return }      // a second finger neither moves nor re-anchors
        // Touching the content stops any motion where it is; the drag goes on from there.
        startDrag(with: id, y: clampCoordinate(y))
    }

    public mutating func pointerMove(_ id: PointerID, y: Double, at time: Double) {
        advance(to: time)
        guard y.isFinite, pointers.update(id, y: clampCoordinate(y)) else { return }
        guard case .dragging(var drag) = motion, drag.pointer == id else { return }
        drag.requested = drag.anchorOffset - (clampCoordinate(y) - drag.anchorY)
        motion = .dragging(drag)
        offset = resist(drag.requested)
        tracker.add(time: now, position: drag.requested)
        velocity = 0
    }

    public mutating func pointerUp(_ id: PointerID, at time: Double) {
        advance(to: time)
        guard pointers.remove(id) else { return }
        guard case .dragging(let drag) = motion, drag.pointer == id else { return }
        if let next = pointers.first {
            // Another finger is still down: it takes over from where the content is.
            var handed = drag
            handed.pointer = next.id
            handed.anchorY = next.y
            handed.anchorOffset = drag.requested
            motion = .dragging(handed)
            return
        }
        release(drag)
    }

    /// All pointers vanished (focus lost, touch device reset): release without a fling.
    public mutating func cancelPointers(at time: Double) {
        advance(to: time)
        pointers.removeAll()
        if case .dragging = motion {
            tracker.reset()
            settle(velocity: 0)
        }
    }

    /// Mouse wheel or keyboard: move by `delta` points within the resting range.
    public mutating func scroll(by delta: Double, at time: Double) {
        advance(to: time)
        // While dragged or bouncing past an edge, a wheel notch would jump the content.
        guard delta.isFinite, !isDragging, range.contains(offset) else { return }
        let target = min(max(offset + delta, range.lowerBound), range.upperBound)
        offset = target
        settle(velocity: 0)
    }

    /// Keyboard: glide to `target` (kept inside the resting range) on the physics' own
    /// spring, from where the content is and as fast as it moves, so a key during a fling
    /// or during another key's glide carries on without a jerk. Like any motion, a touch
    /// stops it where it is. `within`: the glide comes to rest within this many seconds
    /// whatever the distance (Home, End: iOS's scroll-to-top takes about 0.3–0.5 s), on a
    /// stiffer spring of the same damping when the physics' own would take longer; a move
    /// the spring makes in time keeps its feel.
    public mutating func glide(to target: Double, at time: Double, within limit: Double? = nil) {
        advance(to: time)
        guard target.isFinite, !isDragging else { return }
        let goal = min(max(target, range.lowerBound), range.upperBound)
        guard goal != offset || velocity != 0 else {
            // Already there (Down then Up before the glide moved): stop where it is.
            if case .animating = motion { motion = .resting }
            return
        }
        let profile = physics.profile
        var spring = profile.spring
        var simulation = SpringSimulation(spring: spring, start: offset, end: goal, velocity: velocity,
                                          tolerance: profile.tolerance)
        if let limit, limit > 0 {
            // The settling time goes as 1/ω, ω = √(k/m), but for the tolerance's fixed speed:
            // a few rounds of scaling the stiffness by the square of the overrun bring it in.
            for _ in 0..<12 where simulation.settleTime > limit {
                let overrun = simulation.settleTime / limit * 1.01
                spring.stiffness *= overrun * overrun
                simulation = SpringSimulation(spring: spring, start: offset, end: goal, velocity: velocity,
                                              tolerance: profile.tolerance)
            }
        }
        motion = .animating(simulation, start: now)
    }

    /// Where the running glide (`glide(to:)`) will come to rest; nil when there is none.
    /// Only a glide is a bare spring: releases and bounces are ballistic simulations.
    public var glideTarget: Double? {
        if case .animating(let spring as SpringSimulation, _) = motion { return spring.end }
        return nil
    }

    // MARK: Geometry changes

    public mutating func setViewportHeight(_ height: Double, at time: Double) {
        changeGeometry(at: time) { $0.viewportHeight = max(1, height) }
    }

    public mutating func setContentHeight(_ height: Double, at time: Double) {
        changeGeometry(at: time) { $0.contentHeight = max(0, height) }
    }

    /// Hold the list open by `inset` points above the top (0 to let it collapse).
    public mutating func setTopInset(_ inset: Double, at time: Double) {
        changeGeometry(at: time) { $0.topInset = max(0, inset) }
    }

    /// Content was inserted above the top: keep what is on screen where it is by shifting
    /// the offset, unless the list is at the top, where new rows should be revealed.
    public mutating func shift(by delta: Double, at time: Double) {
        advance(to: time)
        offset += delta
        if case .dragging(var drag) = motion {
            drag.anchorOffset += delta
            drag.requested += delta
            tracker.shift(by: delta)
            motion = .dragging(drag)
        } else {
            settle(velocity: velocity)
        }
    }

    // MARK: Time

    /// Evaluate the motion at `time`. Times earlier than the last one seen are ignored.
    public mutating func advance(to time: Double) {
        guard time.isFinite else { return }
        now = max(now, time)
        guard case .animating(let simulation, let start) = motion else { return }
        let t = now - start
        if simulation.isDone(t) {
            offset = simulation.x(t)
            velocity = 0
            motion = .resting
        } else {
            offset = simulation.x(t)
            velocity = simulation.dx(t)
        }
    }

    // MARK: Internals

    private func clampCoordinate(_ y: Double) -> Double {
        min(max(y, -Self.coordinateLimit), Self.coordinateLimit)
    }

    /// The rubber band's dimension past the top. While the list is held open by an inset,
    /// the band is shortened by it, so the content never goes more than one viewport past
    /// its own top edge, however the inset changes.
    private var topBandDimension: Double { max(1, viewportHeight - topInset) }

    /// Visible offset for an un-resisted one: 1:1 inside the range, rubber band outside.
    private func resist(_ requested: Double) -> Double {
        let r = range
        if requested < r.lowerBound {
            return r.lowerBound - physics.overscroll(requested: r.lowerBound - requested, dimension: topBandDimension)
        }
        if requested > r.upperBound {
            return r.upperBound + physics.overscroll(requested: requested - r.upperBound, dimension: viewportHeight)
        }
        return requested
    }

    private func unresist(_ visible: Double) -> Double {
        let r = range
        if visible < r.lowerBound {
            return r.lowerBound - physics.requestedOverscroll(visible: r.lowerBound - visible, dimension: topBandDimension)
        }
        if visible > r.upperBound {
            return r.upperBound + physics.requestedOverscroll(visible: visible - r.upperBound, dimension: viewportHeight)
        }
        return visible
    }

    private mutating func startDrag(with id: PointerID, y: Double) {
        let requested = unresist(offset)
        motion = .dragging(Drag(pointer: id, anchorY: y, anchorOffset: requested, requested: requested))
        velocity = 0
        tracker.reset()
        tracker.add(time: now, position: requested)
    }

    private mutating func release(_ drag: Drag) {
        let profile = physics.profile
        var v = tracker.velocity(at: now)
        tracker.reset()
        if abs(v) < profile.minFlingVelocity { v = 0 }
        v = min(max(v, -profile.maxFlingVelocity), profile.maxFlingVelocity)
        // While overscrolled the content moved slower than the finger: carry the content's
        // own velocity into the spring, not the finger's.
        let r = range
        if drag.requested < r.lowerBound {
            v *= physics.overscrollSlope(requested: r.lowerBound - drag.requested, dimension: topBandDimension)
        } else if drag.requested > r.upperBound {
            v *= physics.overscrollSlope(requested: drag.requested - r.upperBound, dimension: viewportHeight)
        }
        settle(velocity: v)
    }

    /// Start whatever motion brings the content to rest from here with `velocity`.
    private mutating func settle(velocity v: Double) {
        let r = range
        if v == 0 && r.contains(offset) {
            motion = .resting
            velocity = 0
            return
        }
        motion = .animating(physics.ballistic(position: offset, velocity: v, range: r), start: now)
        velocity = v
    }

    private mutating func changeGeometry(at time: Double, _ change: (inout ScrollView) -> Void) {
        advance(to: time)
        let before = offset
        change(&self)
        offset = before      // geometry never moves what is on screen by itself
        switch motion {
        case .dragging(var drag):
            // Re-anchor so the content stays under the finger with the new range.
            let y = pointers.y(of: drag.pointer) ?? drag.anchorY
            drag.anchorY = y
            drag.anchorOffset = unresist(offset)
            // The un-resisted coordinate moved under the samples: move them with it, or
            // the fit would read the re-anchoring as a fling.
            tracker.shift(by: drag.anchorOffset - drag.requested)
            drag.requested = drag.anchorOffset
            motion = .dragging(drag)
        case .resting, .animating:
            // Carry on from where it is; if the range moved away, spring to it smoothly.
            settle(velocity: velocity)
        }
    }
}
