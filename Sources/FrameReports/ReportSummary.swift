import OverscrollKit
import FoundationEssentials
import Glibc

/// summary.json: the run's metadata, definitions, and statistics overall and per UI state.
/// Small and stable, for CI thresholds and `overscroll report`.
public struct ReportSummary: Sendable, Equatable {
    /// Bumped whenever a reader of the old format would misread the new one.
    public static let formatVersion = 1
    public static let fileName = "summary.json"

    public var formatVersion: Int
    public var metadata: ReportMetadata
    /// How every number was computed, in words, in the file itself: a summary read months
/// later must not depend on remembering what a column meant.
    public var definitions: [String: String]
    /// The whole run; its keys sit at the top level of summary.json.
    public var overall: GroupSummary
    /// Keyed by `UIState.rawValue`; every state is present, with 0 frames if unseen.
    public var states: [String: GroupSummary]
    /// How many of the last frames trace.json holds (it is a bounded ring).
    public var traceFramesKept: Int
    /// Rows frames.csv lost because the disk could not keep up or failed.
    public var csvRowsDropped: Int
    /// Values outside the histograms' 0…60 s range, counted at the edge.
    public var clampedValues: Int
    /// Log lines the run could not write to standard error (`LogWriter`): a gap in the
    /// journal that the report still tells of.
    public var logLinesDropped: Int

    public init(formatVersion: Int = ReportSummary.formatVersion, metadata: ReportMetadata,
                definitions: [String: String] = ReportSummary.definitions, overall: GroupSummary,
                states: [String: GroupSummary], traceFramesKept: Int, csvRowsDropped: Int,
                clampedValues: Int, logLinesDropped: Int = 0) {
        self.formatVersion = formatVersion
        self.metadata = metadata
        self.definitions = definitions
        self.overall = overall
        self.states = states
        self.traceFramesKept = traceFramesKept
        self.csvRowsDropped = csvRowsDropped
        self.clampedValues = clampedValues
        self.logLinesDropped = logLinesDropped
    }

    /// The summary of a profiled run.
    public init(metadata: ReportMetadata, profiler: FrameProfiler, traceFramesKept: Int, csvRowsDropped: Int = 0,
                logLinesDropped: Int = 0) {
        var states: [String: GroupSummary] = [:]
        var clamped = 0
        for state in UIState.allCases {
            let stats = profiler.statistics(for: state)
            states[state.rawValue] = GroupSummary(stats)
            clamped += stats.clampedValues
        }
        // The budget the verdicts really used, whatever the caller's metadata said.
        var metadata = metadata
        metadata.refreshPeriodMs = profiler.refreshPeriod * 1000
        self.init(metadata: metadata, overall: GroupSummary(profiler.overall), states: states,
                  traceFramesKept: traceFramesKept, csvRowsDropped: csvRowsDropped, clampedValues: clamped,
                  logLinesDropped: logLinesDropped)
    }

    public func state(_ state: UIState) -> GroupSummary? { states[state.rawValue] }

    public static let definitions: [String: String] = [
        "percentiles": "p50…p99.9: the nearest-rank value's HdrHistogram bucket (values rounded to 1 us, buckets 3 significant digits wide, so at most 0.1 % above the value that occurred at that rank, never below), clamped to [min, max]; min, max and mean are exact; never over fps values",
        "interval_ms": "present-to-present interval (virtual 1/fps in replay runs)",
        "cpu_ms": "CPU time of the whole process, every thread, user + system (CLOCK_PROCESS_CPUTIME_ID), from frame start to present done: the frame's own work, a renderer's worker threads, SDL's audio thread and the watcher thread of a running refresh command (a pipe read, negligible) all count; a present blocked on vsync does not; the refresh command itself is another process and is not counted",
        "latency_ms": "oldest input handled in the frame to present returned; no display feedback, so scan-out is not included",
        "touch_to_scanout_ms": "per frame with input, on paths that hear when a frame reaches the screen: the oldest input handled in the frame, at its kernel timestamp (CLOCK_MONOTONIC; metadata.touch_time_source says \"read\" where the input source gave none and the time it was read stands in), to the vblank the frame was scanned out at. DRM dumb buffers: the page-flip event's time, the vblank's where the driver counts vblanks, else (virtio-gpu, bochs, simpledrm) the time the commit ended, with no vblank wait in it (metadata.scanout_clock says which); the mode set that shows the first frame has no event, so that frame is not known. Wayland's wl_shm: the compositor's wp_presentation feedback for the frame's commit, where its clock is CLOCK_MONOTONIC (metadata.presentation_feedback counts its flags); a commit it discarded was never shown and is not known. SDL's window surface (X11), its GPU path (KMSDRM too: SDL exposes no flip event), fbdev, a compositor without wp_presentation or with another clock, and offscreen runs cannot know: the column is empty and the figure null, never a guess; metadata.scanout_clock names the path's clock or why it has none. Empty also where the frame's flip event was never heard (the VT switched away)",
        "missed_vsyncs": "per frame max(0, round(interval / refresh period) - 1), summed",
        "janky_frames": "frames with missed_vsyncs >= 1",
        "over_budget_frames": "frames whose cpu time exceeds the refresh period",
        "avg_fps": "frames / sum of intervals (time-weighted, as MangoHud)",
        "one_percent_low_fps": "1000 / p99 interval_ms",
        "refresh_state": "frames.csv: the pull-to-refresh state after the frame: idle, pulling, armed, refreshing, finishing (the replay trace's state column)",
        "ui_state": "frames.csv: what the list was doing in the frame, the key of the per-state figures: idle, dragging, overscrolled, momentum, refreshing",
    ]
}

/// Counts, distributions and frame rates for one group of frames.
public struct GroupSummary: Sendable, Equatable {
    public var frames: Int
    public var jankyFrames: Int
    public var missedVsyncs: Int
    public var overBudgetFrames: Int
    /// Wall time covered: the sum of the intervals.
    public var durationSeconds: Double
    public var intervalMs: MetricPercentiles?
    public var cpuMs: MetricPercentiles?
    public var latencyMs: MetricPercentiles?
    /// Input (kernel time) to scanout (the vblank): nil where the path cannot know.
    public var touchToScanoutMs: MetricPercentiles?
    public var avgFPS: Double?
    public var onePercentLowFPS: Double?
    /// Gated keys a summary.json read back lacked ("janky_frames", "cpu_ms.p95"): a
    /// comparison marks their metrics MISSING rather than calling the file corrupt.
    public var absentKeys: Set<String> = []

    public init(frames: Int, jankyFrames: Int, missedVsyncs: Int, overBudgetFrames: Int,
                durationSeconds: Double, intervalMs: MetricPercentiles?, cpuMs: MetricPercentiles?,
                latencyMs: MetricPercentiles?, avgFPS: Double?, onePercentLowFPS: Double?,
                touchToScanoutMs: MetricPercentiles? = nil) {
        self.touchToScanoutMs = touchToScanoutMs
        self.frames = frames
        self.jankyFrames = jankyFrames
        self.missedVsyncs = missedVsyncs
        self.overBudgetFrames = overBudgetFrames
        self.durationSeconds = durationSeconds
        self.intervalMs = intervalMs
        self.cpuMs = cpuMs
        self.latencyMs = latencyMs
        self.avgFPS = avgFPS
        self.onePercentLowFPS = onePercentLowFPS
    }

    public init(_ s: FrameStatistics) {
        self.init(frames: s.frames, jankyFrames: s.jankyFrames, missedVsyncs: s.missedVsyncs,
                  overBudgetFrames: s.overBudgetFrames, durationSeconds: s.intervalSum + s.idleSeconds,
                  intervalMs: s.intervalPercentiles, cpuMs: s.cpuPercentiles,
                  latencyMs: s.latencyPercentiles, avgFPS: s.averageFPS,
                  onePercentLowFPS: s.onePercentLowFPS, touchToScanoutMs: s.touchToScanoutPercentiles)
    }

    /// Janky frames as a percentage of all frames; nil with no frames.
    public var jankyPercent: Double? {
        frames > 0 && !absentKeys.contains("janky_frames") ? 100 * Double(jankyFrames) / Double(frames) : nil
    }

    /// One percentile of a metric ("interval_ms", \.p95, "p95"), nil where the summary
    /// has no such metric or lacked that key.
    public func percentile(_ metric: String, _ field: KeyPath<MetricPercentiles, Double>, _ key: String) -> Double? {
        guard !absentKeys.contains("\(metric).\(key)") else { return nil }
        let block: MetricPercentiles? = switch metric {
        case "interval_ms": intervalMs
        case "cpu_ms": cpuMs
        case "latency_ms": latencyMs
        default: nil
        }
        return block?[keyPath: field]
    }
    public var overBudgetPercent: Double? { frames > 0 ? 100 * Double(overBudgetFrames) / Double(frames) : nil }
}

// MARK: - JSON

/// Any string key: the overall group's keys share the top level with the report's own.
struct SummaryKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension GroupSummary: Codable {
    public init(from decoder: Decoder) throws {
        try self.init(from: decoder.container(keyedBy: SummaryKey.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: SummaryKey.self)
        try encode(into: &c)
    }

    init(from c: KeyedDecodingContainer<SummaryKey>) throws {
        frames = try c.decode(Int.self, forKey: SummaryKey("frames"))
        // A gated count or percentile left out is MISSING in a comparison, not "corrupt".
        if let janky = try c.decodeIfPresent(Int.self, forKey: SummaryKey("janky_frames")) {
            jankyFrames = janky
        } else {
            jankyFrames = 0
            absentKeys.insert("janky_frames")
        }
        missedVsyncs = try c.decode(Int.self, forKey: SummaryKey("missed_vsyncs"))
        overBudgetFrames = try c.decode(Int.self, forKey: SummaryKey("over_budget_frames"))
        durationSeconds = try c.decode(Double.self, forKey: SummaryKey("duration_s"))
        intervalMs = try Self.percentiles(c, "interval_ms", absent: &absentKeys)
        cpuMs = try Self.percentiles(c, "cpu_ms", absent: &absentKeys)
        latencyMs = try Self.percentiles(c, "latency_ms", absent: &absentKeys)
        touchToScanoutMs = try c.decodeIfPresent(MetricPercentiles.self, forKey: SummaryKey("touch_to_scanout_ms"))
        avgFPS = try c.decodeIfPresent(Double.self, forKey: SummaryKey("avg_fps"))
        onePercentLowFPS = try c.decodeIfPresent(Double.self, forKey: SummaryKey("one_percent_low_fps"))
    }

    /// The percentiles under `key`, if present; a gated one (p50, p95, p99) left out is
    /// named in `absent` and held as NaN, which nothing reads past `percentile(_:_:_:)`.
    static func percentiles(_ c: KeyedDecodingContainer<SummaryKey>, _ key: String,
                            absent: inout Set<String>) throws -> MetricPercentiles? {
        guard try c.contains(SummaryKey(key)) && !c.decodeNil(forKey: SummaryKey(key)) else { return nil }
        let p = try c.nestedContainer(keyedBy: MetricPercentiles.CodingKeys.self, forKey: SummaryKey(key))
        func gated(_ field: MetricPercentiles.CodingKeys) throws -> Double {
            if let value = try p.decodeIfPresent(Double.self, forKey: field) { return value }
            absent.insert("\(key).\(field.stringValue)")
            return .nan
        }
        return MetricPercentiles(count: try p.decode(Int.self, forKey: .count), min: try p.decode(Double.self, forKey: .min),
                                 p50: try gated(.p50), p90: try p.decode(Double.self, forKey: .p90), p95: try gated(.p95),
                                 p99: try gated(.p99), p99_9: try p.decode(Double.self, forKey: .p99_9),
                                 max: try p.decode(Double.self, forKey: .max), mean: try p.decode(Double.self, forKey: .mean))
    }

    // Absent values are written as null, not left out: every summary has the same keys.
    func encode(into c: inout KeyedEncodingContainer<SummaryKey>) throws {
        try c.encode(frames, forKey: SummaryKey("frames"))
        try c.encode(jankyFrames, forKey: SummaryKey("janky_frames"))
        try c.encode(jankyPercent, forKey: SummaryKey("janky_percent"))
        try c.encode(missedVsyncs, forKey: SummaryKey("missed_vsyncs"))
        try c.encode(overBudgetFrames, forKey: SummaryKey("over_budget_frames"))
        try c.encode(overBudgetPercent, forKey: SummaryKey("over_budget_percent"))
        try c.encode(durationSeconds, forKey: SummaryKey("duration_s"))
        try c.encode(intervalMs, forKey: SummaryKey("interval_ms"))
        try c.encode(cpuMs, forKey: SummaryKey("cpu_ms"))
        try c.encode(latencyMs, forKey: SummaryKey("latency_ms"))
        try c.encode(touchToScanoutMs, forKey: SummaryKey("touch_to_scanout_ms"))
        try c.encode(avgFPS, forKey: SummaryKey("avg_fps"))
        try c.encode(onePercentLowFPS, forKey: SummaryKey("one_percent_low_fps"))
    }
}

extension ReportSummary: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: SummaryKey.self)
        formatVersion = try c.decode(Int.self, forKey: SummaryKey("format_version"))
        metadata = try c.decode(ReportMetadata.self, forKey: SummaryKey("metadata"))
        definitions = try c.decodeIfPresent([String: String].self, forKey: SummaryKey("definitions")) ?? [:]
        overall = try GroupSummary(from: c)
        states = try c.decode([String: GroupSummary].self, forKey: SummaryKey("states"))
        traceFramesKept = try c.decode(Int.self, forKey: SummaryKey("trace_frames_kept"))
        csvRowsDropped = try c.decodeIfPresent(Int.self, forKey: SummaryKey("csv_rows_dropped")) ?? 0
        clampedValues = try c.decodeIfPresent(Int.self, forKey: SummaryKey("clamped_values")) ?? 0
        logLinesDropped = try c.decodeIfPresent(Int.self, forKey: SummaryKey("log_lines_dropped")) ?? 0
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: SummaryKey.self)
        try c.encode(formatVersion, forKey: SummaryKey("format_version"))
        try c.encode(metadata, forKey: SummaryKey("metadata"))
        try c.encode(definitions, forKey: SummaryKey("definitions"))
        try overall.encode(into: &c)
        try c.encode(states, forKey: SummaryKey("states"))
        try c.encode(traceFramesKept, forKey: SummaryKey("trace_frames_kept"))
        try c.encode(csvRowsDropped, forKey: SummaryKey("csv_rows_dropped"))
        try c.encode(clampedValues, forKey: SummaryKey("clamped_values"))
        try c.encode(logLinesDropped, forKey: SummaryKey("log_lines_dropped"))
    }

    /// Pretty, key-sorted JSON: diffable between runs.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
