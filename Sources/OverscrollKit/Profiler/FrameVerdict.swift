/// What one frame means against the display's refresh period, counted as Android's
/// FrameMetrics and Perfetto's frame timeline count jank: by refreshes missed, not by a
/// fixed 16.7 ms.
public struct FrameVerdict: Sendable, Equatable {
    /// Refreshes that showed the previous frame again: `max(0, round(interval/period) − 1)`.
    public var missedVsyncs: Int
    /// Presented at least one vsync late (Android's modern / Perfetto's definition).
    public var janky: Bool { missedVsyncs >= 1 }
    /// The CPU work alone took longer than one refresh period.
    public var overBudget: Bool
    /// The phase that took the longest, to say where to look first.
    public var dominantPhase: FramePhase

    public init(missedVsyncs: Int, overBudget: Bool, dominantPhase: FramePhase) {
        self.missedVsyncs = missedVsyncs
        self.overBudget = overBudget
        self.dominantPhase = dominantPhase
    }

    public init(timing t: FrameTiming, refreshPeriod: Double) {
        missedVsyncs = Self.missedVsyncs(interval: t.interval, refreshPeriod: refreshPeriod)
        overBudget = t.cpuTime > refreshPeriod
        // Ties go to the earlier phase; all four are compared without allocating.
        var best = FramePhase.input
        var longest = t.inputTime
        if t.updateTime > longest { best = .update; longest = t.updateTime }
        if t.renderTime > longest { best = .render; longest = t.renderTime }
        if t.presentTime > longest { best = .present }
        dominantPhase = best
    }

    public static func missedVsyncs(interval: Double, refreshPeriod: Double) -> Int {
        guard refreshPeriod > 0, interval.isFinite, interval > 0 else { return 0 }
        let periods = (interval / refreshPeriod).rounded()
        // A stall of hours would overflow Int conversion; no display counts that high.
        guard periods < 1e12 else { return Int(1e12) }
        return max(0, Int(periods) - 1)
    }
}
