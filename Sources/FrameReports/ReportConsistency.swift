import OverscrollKit

/// What a summary.json can hold and still be one this program wrote: counts that fit in
/// each other, times that are times. `overscroll report` refuses anything else in words
/// instead of printing a max of -1 ms or 2^62 frames as if they were measured.
extension ReportSummary {
    /// More frames than 500 years at 60 Hz: not a run.
    static let maxFrames = 1 << 40

    /// The first thing wrong, as a phrase for "summary.json is corrupt: …"; nil if none.
    public var inconsistency: String? {
        if let problem = overall.inconsistency { return "overall: \(problem)" }
        for (state, group) in states.sorted(by: { $0.key < $1.key }) {
            if let problem = group.inconsistency { return "\(state): \(problem)" }
            if group.frames > overall.frames { return "\(state): \(group.frames) frames, more than the run's \(overall.frames)" }
        }
        if traceFramesKept < 0 || traceFramesKept > overall.frames { return "trace_frames_kept \(traceFramesKept) is not within 0…\(overall.frames)" }
        if csvRowsDropped < 0 || clampedValues < 0 || logLinesDropped < 0 { return "a negative count" }
        return nil
    }
}

extension GroupSummary {
    var inconsistency: String? {
        guard (0...ReportSummary.maxFrames).contains(frames) else { return "frames \(frames) is not a frame count" }
        for (name, count) in [("janky_frames", jankyFrames), ("missed_vsyncs", missedVsyncs), ("over_budget_frames", overBudgetFrames)]
        where count < 0 || (name != "missed_vsyncs" && count > frames) {
            return "\(name) \(count) is not within 0…\(frames)"
        }
        guard durationSeconds.isFinite, durationSeconds >= 0 else { return "duration \(durationSeconds) s is not a duration" }
        for (name, value) in [("avg_fps", avgFPS), ("one_percent_low_fps", onePercentLowFPS)] {
            if let value, !(value.isFinite && value >= 0) { return "\(name) \(value) is not a frame rate" }
        }
        for (name, metric) in [("interval_ms", intervalMs), ("cpu_ms", cpuMs), ("latency_ms", latencyMs)] {
            guard let metric else { continue }
            // NaN: a gated percentile the file left out (`absentKeys`), MISSING, not wrong.
            let values = [metric.min, metric.p50, metric.p90, metric.p95, metric.p99, metric.p99_9, metric.max].filter { !$0.isNaN }
            guard values.allSatisfy({ $0.isFinite && $0 >= 0 }), metric.mean.isFinite, metric.mean >= 0 else {
                return "\(name) holds a negative or non-finite time"
            }
            guard zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                return "\(name) percentiles are out of order (min ≤ p50 ≤ … ≤ max)"
            }
            guard (0...frames).contains(metric.count) else { return "\(name) count \(metric.count) is not within 0…\(frames)" }
        }
        return nil
    }
}
