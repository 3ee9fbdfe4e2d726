import OverscrollKit

/// A running kiosk's figures for a fleet's monitoring, in Prometheus's text exposition
/// format (version 0.0.4), for node_exporter's textfile collector: counters since start,
/// frame interval and frame CPU as histograms (buckets around the frame budget, so a
/// fleet's dashboards can add them up across kiosks, which quantiles cannot be), refresh
/// outcomes, rows shown, start time, log lines lost, and the version as `overscroll_build_info`.
///
/// Every figure is counted here, frame by frame (`record`): no profiler is needed, and
/// recording a frame touches a few fixed arrays, allocating nothing.
public struct FleetMetrics: Sendable, Equatable {
    public var frames = 0
    public var jankyFrames = 0
    public private(set) var interval: FleetHistogram
    public private(set) var cpu: FleetHistogram
    /// Input (its kernel time) to the vblank that showed it, where the path hears the
    /// vblank (the report's touch_to_scanout_ms); empty elsewhere.
    public private(set) var touchToScanout: FleetHistogram
    public var refreshesOK = 0
    public var refreshesFailed = 0
    public var refreshesTimedOut = 0
    /// Unix time of the last refresh that brought rows; nil before the first.
    public var lastRefreshSuccess: Double?
    public var rows = 0
    /// Unix time the program started.
    public var startTime = 0.0
    /// The program's version, for `overscroll_build_info{version=…}`.
    public var version = "unknown"
    /// Log lines that could not be written (`LogWriter.dropped`: a closed or full stderr,
    /// a log reader that died): the one sign on a dashboard that the journal has a gap.
    public var logLinesDropped = 0
    /// The frame budget (one refresh period) the buckets and the jank count are judged by.
    public let refreshPeriod: Double

    public init(refreshPeriod: Double = 1.0 / 60) {
        self.refreshPeriod = refreshPeriod
        interval = FleetHistogram(bounds: Self.intervalBounds(period: refreshPeriod))
        cpu = FleetHistogram(bounds: Self.cpuBounds(period: refreshPeriod))
        touchToScanout = FleetHistogram(bounds: Self.touchToScanoutBounds(period: refreshPeriod))
    }

    /// Touch-to-scanout buckets in refresh periods: the floor is the wait for the next
    /// vblank plus the frame's work (one to two periods); past three a touch waited frames.
    static func touchToScanoutBounds(period p: Double) -> [Double] {
        [0.5, 1, 1.5, 2, 2.5, 3, 4, 6, 10, 30].map { FleetHistogram.bound($0 * p) }
    }

    /// A frame's touch-to-scanout, seconds, heard after the frame (`FrameProfiler.presented`).
    public mutating func recordTouchToScanout(_ seconds: Double) { touchToScanout.observe(seconds) }

    /// Interval buckets at half-periods past whole ones: up to 1.5 periods a frame was on
    /// time, up to 2.5 it missed one vsync, and so on, as `FrameVerdict` counts them.
    static func intervalBounds(period p: Double) -> [Double] {
        [0.5, 1.5, 2.5, 3.5, 5.5, 10.5, 30.5, 60.5].map { FleetHistogram.bound($0 * p) }
    }

    /// CPU buckets as shares of the budget: where a frame's work stands against it.
    static func cpuBounds(period p: Double) -> [Double] {
        [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 4].map { FleetHistogram.bound($0 * p) }
    }

    /// One presented frame: its interval and CPU time in seconds.
    public mutating func record(interval seconds: Double, cpu cpuSeconds: Double) {
        frames += 1
        if FrameVerdict.missedVsyncs(interval: seconds, refreshPeriod: refreshPeriod) >= 1 { jankyFrames += 1 }
        interval.observe(seconds)
        cpu.observe(cpuSeconds)
    }

    /// One frame and what the model did in it (a refresh ended or failed, the rows it
    /// shows). `now` is the Unix time, read by the caller only for a frame that ended a
    /// refresh (`endsRefresh`).
    public mutating func record(_ timing: FrameTiming, model: OverscrollModel, now: Double) {
        record(interval: timing.interval, cpu: timing.cpuTime)
        rows = model.rows.count
        let events = model.events
        if events.contains(.refreshEnd) {
            refreshesOK += 1
            lastRefreshSuccess = now
        }
        if events.contains(.refreshError) {
            if case .timedOut = model.lastRefresh?.ending { refreshesTimedOut += 1 } else { refreshesFailed += 1 }
        }
    }

    /// Makes this value equal to `other` in place, in this value's own buffers. The metrics
    /// writer takes its snapshot of the frame loop's figures this way: a plain copy would
    /// share the histograms' arrays, and the loop's next frame would then copy them
    /// (allocate) before counting into them.
    public mutating func assign(_ other: FleetMetrics) {
        guard refreshPeriod == other.refreshPeriod, interval.assign(other.interval), cpu.assign(other.cpu),
              touchToScanout.assign(other.touchToScanout) else {
            self = other
            return
        }
        frames = other.frames
        jankyFrames = other.jankyFrames
        refreshesOK = other.refreshesOK
        refreshesFailed = other.refreshesFailed
        refreshesTimedOut = other.refreshesTimedOut
        lastRefreshSuccess = other.lastRefreshSuccess
        rows = other.rows
        startTime = other.startTime
        version = other.version
        logLinesDropped = other.logLinesDropped
    }

    /// Whether the frame the model just stepped ended a refresh (then `record` wants the time).
    public static func endsRefresh(_ model: OverscrollModel) -> Bool { model.events.contains(.refreshEnd) }

    /// The exposition text. Every metric has HELP and TYPE; names carry their unit.
    public var exposition: String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Double)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (suffix, value) in samples { out += "\(name)\(suffix) \(Self.number(value))\n" }
        }
        metric("overscroll_build_info", "gauge", "Always 1; the version is the label.",
               [("{version=\"\(Self.labelValue(version))\"}", 1)])
        metric("overscroll_frames_total", "counter", "Frames presented since start.", [("", Double(frames))])
        metric("overscroll_janky_frames_total", "counter", "Frames that missed at least one vsync.", [("", Double(jankyFrames))])
        metric("overscroll_frame_interval_seconds", "histogram", "Time from one presented frame to the next.",
               interval.samples)
        metric("overscroll_frame_cpu_seconds", "histogram", "CPU time the process spent on a frame (as the report's cpu_ms).",
               cpu.samples)
        metric("overscroll_touch_to_scanout_seconds", "histogram",
               "Input (its kernel time) to the vblank that showed it; only where the display says when a frame is shown (DRM).",
               touchToScanout.samples)
        metric("overscroll_refresh_total", "counter", "Refreshes ended, by result.",
               [("{result=\"ok\"}", Double(refreshesOK)), ("{result=\"failed\"}", Double(refreshesFailed)),
                ("{result=\"timeout\"}", Double(refreshesTimedOut))])
        metric("overscroll_last_refresh_success_timestamp_seconds", "gauge",
               "Unix time of the last refresh that brought rows (0: none yet).", [("", lastRefreshSuccess ?? 0)])
        metric("overscroll_rows", "gauge", "Rows in the list.", [("", Double(rows))])
        metric("overscroll_start_time_seconds", "gauge", "Unix time the program started.", [("", startTime)])
        metric("overscroll_log_lines_dropped_total", "counter", "Log lines that could not be written to standard error.",
               [("", Double(logLinesDropped))])
        return out
    }

    /// Prometheus reads Go's float syntax. Integers are written without a fraction; other
    /// values to at most nanoseconds, through a division of whole numbers, so that a sum
    /// of seconds prints as 0.000385 and not 0.00038500000000000003: the nearest double to
    /// a short decimal prints as that decimal.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "NaN" : (v > 0 ? "+Inf" : "-Inf") }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        // The most decimals (up to 9) that keep the scaled value an exact integer in a double.
        var scale = 1e9
        while scale > 1, abs(v) * scale >= 9e15 { scale /= 10 }
        let scaled = (v * scale).rounded()
        if scaled == 0 { return "0" }
        return String(scaled / scale)
    }

    /// A label value with `\`, `"` and newlines escaped, as the format asks.
    static func labelValue(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// Writes the text to `path` atomically (a temporary file renamed over it), so the
    /// collector never reads half of it; its `.tmp` name is not one the collector reads.
    /// Readable by all (0644) whatever the umask: node_exporter runs as its own user, and
    /// the kiosk units' `UMask=0027` would otherwise make the file 0640, unreadable to it.
    /// The figures are no secret (frame times, refresh counts).
    public func write(to path: String) throws(ReportWriterError) {
        try AtomicFile.write(Array(exposition.utf8), to: path, mode: 0o644)
    }
}

/// A Prometheus histogram with fixed bucket bounds: counts per bucket (not cumulative;
/// the exposition adds them up), the sum and the count. `observe` allocates nothing.
public struct FleetHistogram: Sendable, Equatable {
    /// Upper bounds, ascending; +Inf is implied.
    public let bounds: [Double]
    private var counts: [Int]
    public private(set) var sum = 0.0
    public private(set) var count = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    mutating func observe(_ value: Double) {
        guard value.isFinite, value >= 0 else { return }
        var i = 0
        while i < bounds.count && value > bounds[i] { i += 1 }
        counts[i] += 1
        sum += value
        count += 1
    }

    /// Copies `other`'s counts into this one's array; false (nothing copied) when their
    /// buckets differ.
    mutating func assign(_ other: FleetHistogram) -> Bool {
        guard counts.count == other.counts.count, bounds == other.bounds else { return false }
        for i in counts.indices { counts[i] = other.counts[i] }
        sum = other.sum
        count = other.count
        return true
    }

    /// Observations at or below `bound` (the `le` bucket's value), +Inf for all.
    public func cumulative(atOrBelow index: Int) -> Int { counts[...min(index, counts.count - 1)].reduce(0, +) }

    var samples: [(String, Double)] {
        var out: [(String, Double)] = []
        var running = 0
        for (i, bound) in bounds.enumerated() {
            running += counts[i]
            out.append(("_bucket{le=\"\(FleetMetrics.number(bound))\"}", Double(running)))
        }
        out.append(("_bucket{le=\"+Inf\"}", Double(count)))
        out.append(("_sum", sum))
        out.append(("_count", Double(count)))
        return out
    }

    /// A bucket bound as a short decimal (four significant digits): `le` labels are read
    /// by people and must be the same on every kiosk of a refresh rate.
    static func bound(_ seconds: Double) -> Double {
        guard seconds > 0, seconds.isFinite else { return seconds }
        var scale = 1.0
        while seconds * scale < 1000 { scale *= 10 }
        return (seconds * scale).rounded() / scale
    }
}
