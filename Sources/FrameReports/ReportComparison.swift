import OverscrollKit
/// Two reports side by side, metric by metric, with the regressions that should fail CI.
/// Pure: `overscroll report BASE NEW` only prints it and turns `hasRegressions` into the
/// exit status.
public struct ReportComparison: Sendable, Equatable {
    public enum Direction: Sendable, Equatable { case lowerIsBetter, higherIsBetter }

    public struct Row: Sendable, Equatable {
        public var name: String
        public var unit: String
        public var base: Double?
        public var new: Double?
        public var direction: Direction
        /// Whether this metric can fail the comparison (the others are context).
        public var gated: Bool
        /// (new − base) / base in percent; +∞ when base is 0 and new is not; nil when a
        /// side has no value.
        public var changePercent: Double?
        public var isRegression: Bool
        public var isMissing: Bool { gated && (base == nil || new == nil) }
    }

    public var tolerancePercent: Double
    public var rows: [Row]
    /// Differences in how the runs were made that make the numbers less comparable.
    public var notes: [String]

    public var regressions: [Row] { rows.filter(\.isRegression) }
    public var hasRegressions: Bool { rows.contains(where: \.isRegression) }
    /// Gated metrics one side (or both) does not have: a gate that cannot compare them
    /// cannot pass (a report without them said "no regressions" before).
    public var missing: [Row] { rows.filter(\.isMissing) }
    /// Whether `report BASE NEW` exits 1: a regression, or a gated metric missing.
    public var fails: Bool { hasRegressions || !missing.isEmpty }

    /// - Parameter tolerancePercent: how much worse a gated metric may get before it is a
    ///   regression. Worse means higher for times and janky share, lower for frame rates.
    ///   From a base of exactly 0, any increase counts (it is infinitely many percent).
    public init(base: ReportSummary, new: ReportSummary, tolerancePercent: Double = 10) {
        self.tolerancePercent = tolerancePercent
        var rows: [Row] = []
        func add(_ name: String, _ unit: String, _ b: Double?, _ n: Double?,
                 _ direction: Direction = .lowerIsBetter, gated: Bool) {
            rows.append(Self.row(name, unit, b, n, direction, gated: gated, tolerance: tolerancePercent))
        }
        let b = base.overall, n = new.overall
        for (label, key) in [("interval", \GroupSummary.intervalMs), ("cpu", \.cpuMs), ("latency", \.latencyMs)] {
            let bm = b[keyPath: key], nm = n[keyPath: key]
            for (field, name) in [(\MetricPercentiles.p50, "p50"), (\.p95, "p95"), (\.p99, "p99")] {
                add("\(label) \(name)", "ms", b.percentile("\(label)_ms", field, name), n.percentile("\(label)_ms", field, name), gated: true)
            }
            add("\(label) p99.9", "ms", bm?.p99_9, nm?.p99_9, gated: false)
            add("\(label) max", "ms", bm?.max, nm?.max, gated: false)
        }
        // Touch to scanout gates only where both runs' paths hear when a frame is shown: a
        // path that cannot know (X11, offscreen, a replay) has no figure, and that is not a
        // regression nor a missing metric; a note says it was not compared.
        let bothSee = Self.seesScanout(base.metadata) && Self.seesScanout(new.metadata)
        let bt = b.touchToScanoutMs, nt = n.touchToScanoutMs
        add("touch to scanout p50", "ms", bt?.p50, nt?.p50, gated: bothSee)
        add("touch to scanout p95", "ms", bt?.p95, nt?.p95, gated: bothSee)
        add("touch to scanout p99", "ms", bt?.p99, nt?.p99, gated: bothSee)
        add("touch to scanout max", "ms", bt?.max, nt?.max, gated: false)
        add("janky frames", "%", b.jankyPercent, n.jankyPercent, gated: true)
        add("over budget", "%", b.overBudgetPercent, n.overBudgetPercent, gated: false)
        add("missed vsyncs", "/100 frames",
            b.frames > 0 ? 100 * Double(b.missedVsyncs) / Double(b.frames) : nil,
            n.frames > 0 ? 100 * Double(n.missedVsyncs) / Double(n.frames) : nil, gated: false)
        add("1% low fps", "fps", b.onePercentLowFPS, n.onePercentLowFPS, .higherIsBetter, gated: true)
        add("avg fps", "fps", b.avgFPS, n.avgFPS, .higherIsBetter, gated: false)
        self.rows = rows
        self.notes = Self.notes(base.metadata, new.metadata)
        if !bothSee, Self.seesScanout(base.metadata) || Self.seesScanout(new.metadata) {
            let blind = Self.seesScanout(base.metadata) ? "NEW" : "BASE"
            notes.append("touch to scanout is not compared: \(blind)'s path cannot know when a frame reaches the screen")
        }
    }

    /// Whether a run's path heard when its frames reached the screen (summary.json's
    /// `scanout_clock` names a clock, not why there is none; older reports have no key).
    static func seesScanout(_ m: ReportMetadata) -> Bool {
        guard let clock = m.scanoutClock else { return false }
        return !clock.hasPrefix("not known")
    }

    static func row(_ name: String, _ unit: String, _ base: Double?, _ new: Double?, _ direction: Direction,
                    gated: Bool, tolerance: Double) -> Row {
        var change: Double?
        var regression = false
        if let base, let new {
            if base != 0 {
                change = (new - base) / abs(base) * 100
            } else {
                change = new == 0 ? 0 : (new > 0 ? .infinity : -.infinity)
            }
            if gated, let c = change {
                switch direction {
                case .lowerIsBetter: regression = c > tolerance
                case .higherIsBetter: regression = c < -tolerance
                }
            }
        }
        return Row(name: name, unit: unit, base: base, new: new, direction: direction, gated: gated,
                   changePercent: change, isRegression: regression)
    }

    static func notes(_ a: ReportMetadata, _ b: ReportMetadata) -> [String] {
        var notes: [String] = []
        if abs(a.refreshPeriodMs - b.refreshPeriodMs) > 0.01 {
            notes.append("the runs used different frame budgets (\(Self.number(a.refreshPeriodMs)) ms vs \(Self.number(b.refreshPeriodMs)) ms)")
        }
        if a.mode != b.mode { notes.append("one run is \(a.mode), the other \(b.mode)") }
        if a.fps != b.fps, let x = a.fps, let y = b.fps { notes.append("different replay rates (\(x) vs \(y) fps)") }
        if a.script != b.script, let x = a.script, let y = b.script { notes.append("different scripts (\(x) vs \(y))") }
        if a.vsync != b.vsync { notes.append("vsync differs (\(a.vsync ? "on" : "off") vs \(b.vsync ? "on" : "off"))") }
        if a.windowPixels != b.windowPixels {
            notes.append("different window sizes (\(a.windowPixels.width)x\(a.windowPixels.height) vs \(b.windowPixels.width)x\(b.windowPixels.height) px)")
        }
        if a.videoDriver != b.videoDriver || a.renderDriver != b.renderDriver {
            notes.append("different drivers (\(a.videoDriver)/\(a.renderDriver) vs \(b.videoDriver)/\(b.renderDriver))")
        }
        return notes
    }

    static func number(_ v: Double) -> String { ReportText.fixed(v, 3) }
}
