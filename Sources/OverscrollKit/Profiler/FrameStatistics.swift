/// Counts and distributions for one group of frames: the whole run, or one UI state.
public struct FrameStatistics: Sendable {
    public private(set) var frames = 0
    public private(set) var jankyFrames = 0
    public private(set) var missedVsyncs = 0
    public private(set) var overBudgetFrames = 0
    /// Sum of present-to-present intervals: the wall time these frames covered.
    public private(set) var intervalSum = 0.0
    /// Time a live loop slept with nothing to show (`FrameTiming.idleBefore`, and the
    /// still end of a run): with `intervalSum`, the wall time the run covered.
    public private(set) var idleSeconds = 0.0
    var interval = MetricHistogram()
    var cpu = MetricHistogram()
    var latency = MetricHistogram()
    /// Touch (its kernel time) to the vblank the frame showing it was scanned out at:
    /// recorded late, when the presentation is heard (`FrameProfiler.presented`).
    var touchToScanout = MetricHistogram()

    init() {}

    mutating func record(_ t: FrameTiming, _ v: FrameVerdict) {
        frames += 1
        if v.janky { jankyFrames += 1 }
        missedVsyncs += v.missedVsyncs
        if v.overBudget { overBudgetFrames += 1 }
        if t.interval.isFinite && t.interval > 0 { intervalSum += t.interval }
        if t.idleBefore.isFinite && t.idleBefore > 0 { idleSeconds += t.idleBefore }
        interval.record(seconds: t.interval)
        cpu.record(seconds: t.cpuTime)
        if let l = t.latency { latency.record(seconds: l) }
    }

    mutating func recordTouchToScanout(_ seconds: Double) { touchToScanout.record(seconds: seconds) }

    mutating func recordIdle(_ seconds: Double) {
        if seconds.isFinite && seconds > 0 { idleSeconds += seconds }
    }

    public var intervalPercentiles: MetricPercentiles? { interval.percentiles() }
    public var cpuPercentiles: MetricPercentiles? { cpu.percentiles() }
    public var latencyPercentiles: MetricPercentiles? { latency.percentiles() }
    public var touchToScanoutPercentiles: MetricPercentiles? { touchToScanout.percentiles() }

    /// Frames over the wall time they covered, as MangoHud's "Average FPS" (= 1000 / mean
    /// interval): time-weighted, not the mean of per-frame fps, which overstates.
    public var averageFPS: Double? {
        intervalSum > 0 ? Double(frames) / intervalSum : nil
    }

    /// "1% low": 1000 / the 99th-percentile interval in ms (MangoHud, CapFrameX P1).
    public var onePercentLowFPS: Double? {
        guard let p99 = interval.percentiles()?.p99, p99 > 0 else { return nil }
        return 1000 / p99
    }

    /// Values outside the histograms' 0…60 s range, recorded at the edge.
    public var clampedValues: Int { interval.clamped + cpu.clamped + latency.clamped + touchToScanout.clamped }
}
