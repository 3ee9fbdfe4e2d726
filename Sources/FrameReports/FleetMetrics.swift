import OverscrollKit

/// A running kiosk's figures for a fleet's monitoring, in Prometheus's text exposition
/// format (version 0.0.4), for node_exporter's textfile collector: counters since start,
/// frame-time summaries with quantiles, refresh outcomes, rows shown, start time.
public struct FleetMetrics: Sendable, Equatable {
    public var frames = 0
    public var jankyFrames = 0
    public var interval: MetricPercentiles?
    public var intervalSum = 0.0
    public var cpu: MetricPercentiles?
    public var refreshesOK = 0
    public var refreshesFailed = 0
    public var refreshesTimedOut = 0
    /// Unix time of the last refresh that brought rows; nil before the first.
    public var lastRefreshSuccess: Double?
    public var rows = 0
    /// Unix time the program started.
    public var startTime = 0.0

    public init() {}

    /// The figures as of now, from the profiler that saw every frame.
    public mutating func update(from profiler: FrameProfiler) {
        let overall = profiler.overall
        frames = overall.frames
        jankyFrames = overall.jankyFrames
        intervalSum = overall.intervalSum
        interval = overall.intervalPercentiles
        cpu = overall.cpuPercentiles
    }

    /// The exposition text. Every metric has HELP and TYPE; names carry their unit.
    public var exposition: String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Double)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (suffix, value) in samples { out += "\(name)\(suffix) \(Self.number(value))\n" }
        }
        metric("overscroll_frames_total", "counter", "Frames presented since start.", [("", Double(frames))])
        metric("overscroll_janky_frames_total", "counter", "Frames that missed at least one vsync.", [("", Double(jankyFrames))])
        metric("overscroll_frame_interval_seconds", "summary", "Time from one presented frame to the next.",
               Self.summary(interval, sum: intervalSum))
        metric("overscroll_frame_cpu_seconds", "summary", "CPU time the process spent on a frame (as the report's cpu_ms).",
               Self.summary(cpu, sum: cpu.map { $0.mean * Double($0.count) / 1000 } ?? 0))
        metric("overscroll_refresh_total", "counter", "Refreshes ended, by result.",
               [("{result=\"ok\"}", Double(refreshesOK)), ("{result=\"failed\"}", Double(refreshesFailed)),
                ("{result=\"timeout\"}", Double(refreshesTimedOut))])
        metric("overscroll_last_refresh_success_timestamp_seconds", "gauge",
               "Unix time of the last refresh that brought rows (0: none yet).", [("", lastRefreshSuccess ?? 0)])
        metric("overscroll_rows", "gauge", "Rows in the list.", [("", Double(rows))])
        metric("overscroll_start_time_seconds", "gauge", "Unix time the program started.", [("", startTime)])
        return out
    }

    /// The report's percentiles are in milliseconds; Prometheus wants base units.
    private static func summary(_ p: MetricPercentiles?, sum: Double) -> [(String, Double)] {
        guard let p else { return [("_sum", 0), ("_count", 0)] }
        return [("{quantile=\"0.5\"}", p.p50 / 1000), ("{quantile=\"0.9\"}", p.p90 / 1000),
                ("{quantile=\"0.99\"}", p.p99 / 1000),
                ("_sum", sum), ("_count", Double(p.count))]
    }

    /// Prometheus reads Go's float syntax; integers are written without a fraction.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "NaN" : (v > 0 ? "+Inf" : "-Inf") }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    /// Writes the text to `path` atomically (a temporary file renamed over it), so the
    /// collector never reads half of it; its `.tmp` name is not one the collector reads.
    public func write(to path: String) throws(ReportWriterError) {
        try AtomicFile.write(Array(exposition.utf8), to: path)
    }
}
