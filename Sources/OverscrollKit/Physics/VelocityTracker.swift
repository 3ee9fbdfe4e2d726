/// Estimates a pointer's velocity from its recent samples, as Android's and Flutter's
/// trackers do: a least-squares quadratic fit over the last `horizon` of samples, using the
/// samples' own timestamps. A gap longer than `maxGap` starts afresh; fewer than
/// `minSamples` samples, or a pause longer than `maxGap` before lift, give zero.
///
/// Storage is a fixed ring allocated once, so adding a sample never allocates.
public struct VelocityTracker: Sendable {
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var position: Double
    }

    private var ring: [Sample]
    private var newest = -1
    private var count = 0
    public let horizon: Double
    public let maxGap: Double
    public let minSamples: Int

    public init(horizon: Double = 0.1, maxGap: Double = 0.04, minSamples: Int = 3, capacity: Int = 20) {
        self.horizon = horizon
        self.maxGap = maxGap
        self.minSamples = max(2, minSamples)
        self.ring = Array(repeating: Sample(time: 0, position: 0), count: max(capacity, minSamples))
    }

    public init(profile: PhysicsProfile) {
        self.init(horizon: profile.trackerHorizon, maxGap: profile.trackerMaxGap, minSamples: profile.trackerMinSamples)
    }

    public mutating func reset() {
        count = 0
        newest = -1
    }

    public mutating func add(time: Double, position: Double) {
        guard time.isFinite, position.isFinite else { return }
        var time = time
        if count > 0 {
            let last = ring[newest].time
            // Out-of-order samples are pinned to the newest time: they can't make time run
            // backwards in the fit.
            time = max(time, last)
            if time - last > maxGap { reset() }
        }
        newest = (newest + 1) % ring.count
        ring[newest] = Sample(time: time, position: position)
        count = min(count + 1, ring.count)
    }

    /// Moves every sample by `delta`: the coordinate they are measured in was re-based
    /// (the content was re-anchored), which is not motion.
    public mutating func shift(by delta: Double) {
        guard delta.isFinite, delta != 0 else { return }
        var index = newest
        for _ in 0..<count {
            ring[index].position += delta
            index = (index - 1 + ring.count) % ring.count
        }
    }

    /// Velocity (position units per second) as of `time`, typically the lift time.
    public func velocity(at time: Double) -> Double {
        guard count >= minSamples else { return 0 }
        let latest = ring[newest]
        if time - latest.time > maxGap { return 0 }
        // Unweighted quadratic fit x(τ) = a + bτ + cτ² with τ = t − t_latest ≤ 0;
        // the velocity at the latest sample is b.
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var y0 = 0.0, y1 = 0.0, y2 = 0.0
        var used = 0
        var index = newest
        var previousTime = latest.time
        for _ in 0..<count {
            let sample = ring[index]
            let age = latest.time - sample.time
            if age > horizon || previousTime - sample.time > maxGap { break }
            let tau = sample.time - latest.time
            let x = sample.position - latest.position
            let t2 = tau * tau
            s0 += 1; s1 += tau; s2 += t2; s3 += t2 * tau; s4 += t2 * t2
            y0 += x; y1 += x * tau; y2 += x * t2
            used += 1
            previousTime = sample.time
            index = (index - 1 + ring.count) % ring.count
        }
        guard used >= minSamples else { return 0 }
        // Solve the 3×3 normal equations by Cramer's rule for b.
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        if abs(det) > 1e-18 {
            let detB = s0 * (y1 * s4 - s3 * y2) - y0 * (s1 * s4 - s3 * s2) + s2 * (s1 * y2 - y1 * s2)
            let b = detB / det
            if b.isFinite { return b }
        }
        // Degenerate timing (samples at the same instant): fall back to a straight line.
        let denominator = s0 * s2 - s1 * s1
        guard abs(denominator) > 1e-18 else { return 0 }
        let slope = (s0 * y1 - s1 * y0) / denominator
        return slope.isFinite ? slope : 0
    }
}
