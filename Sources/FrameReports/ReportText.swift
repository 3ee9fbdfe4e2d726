import OverscrollKit
import Glibc

/// The plain-text tables `overscroll report` prints. Kept here, beside the data, so they
/// are tested without running the CLI.
public enum ReportText {
    /// One report: metadata, counts, distributions, frame rates, and a row per UI state.
    public static func summary(_ s: ReportSummary, directory: String) -> String {
        let m = s.metadata.escaped, o = s.overall
        var out = "report  \(OutsideText.escaped(directory))\n\n"
        var mode = m.mode
        if let fps = m.fps { mode += ", \(fps) fps" }
        if let script = m.script { mode += ", \(script)" }
        out += table([
            ["program", "overscroll \(m.programVersion)"],
            ["mode", mode],
            ["started", m.startTime],
            ["display", "\(m.videoDriver) / \(m.renderDriver)\(m.renderPath.map { " (\($0) path\(m.presenter.map { ", \($0)" } ?? ""))" } ?? ""), vsync \(m.vsync ? "on" : "off")"],
            ["window", "\(m.windowPoints.width)x\(m.windowPoints.height) pt, \(m.windowPixels.width)x\(m.windowPixels.height) px"],
            ["budget", "\(ms(m.refreshPeriodMs)) ms (\(fixed(1000 / m.refreshPeriodMs, 2)) Hz)"],
            ["duration", "\(fixed(o.durationSeconds, 2)) s"],
        ], rightAligned: [])
        out += "\n"
        out += table([
            ["frames", "janky", "missed vsyncs", "over budget", "avg fps", "1% low fps"],
            [String(o.frames), o.jankyPercent == nil && o.frames > 0 ? "-" : "\(o.jankyFrames) (\(percent(o.jankyPercent)))", String(o.missedVsyncs),
             "\(o.overBudgetFrames) (\(percent(o.overBudgetPercent)))", optional(o.avgFPS, 1), optional(o.onePercentLowFPS, 1)],
        ], rightAligned: Set(0..<6))
        out += "\n"
        var metrics: [[String]] = [["ms", "min", "p50", "p90", "p95", "p99", "p99.9", "max", "samples"]]
        for (name, p) in [("interval", o.intervalMs), ("cpu", o.cpuMs), ("latency", o.latencyMs), ("touch to scanout", o.touchToScanoutMs)] {
            if let p {
                // NaN: a percentile the file left out.
                let shown = [p.min, p.p50, p.p90, p.p95, p.p99, p.p99_9, p.max].map { $0.isNaN ? "-" : ms($0) }
                metrics.append([name] + shown + [String(p.count)])
            } else {
                metrics.append([name, "-", "-", "-", "-", "-", "-", "-", "0"])
            }
        }
        out += table(metrics, rightAligned: Set(1..<9))
        out += "\n"
        var states: [[String]] = [["state", "frames", "janky", "missed", "over budget", "avg fps", "1% low",
                                   "interval p50", "interval p99", "cpu p99", "latency p99"]]
        for state in UIState.allCases {
            guard let g = s.state(state) else { continue }
            states.append([state.rawValue, String(g.frames), "\(g.jankyFrames) (\(percent(g.jankyPercent)))",
                           String(g.missedVsyncs), String(g.overBudgetFrames), optional(g.avgFPS, 1),
                           optional(g.onePercentLowFPS, 1), optional(g.percentile("interval_ms", \.p50, "p50"), 3),
                           optional(g.percentile("interval_ms", \.p99, "p99"), 3), optional(g.percentile("cpu_ms", \.p99, "p99"), 3),
                           optional(g.percentile("latency_ms", \.p99, "p99"), 3)])
        }
        out += table(states, rightAligned: Set(1..<11))
        if s.traceFramesKept < o.frames {
            out += "\ntrace.json keeps the last \(s.traceFramesKept) of \(o.frames) frames\n"
        }
        if s.csvRowsDropped > 0 { out += "frames.csv is missing \(s.csvRowsDropped) rows (the disk fell behind or failed)\n" }
        if s.logLinesDropped > 0 { out += "\(s.logLinesDropped) log lines could not be written (stderr closed, full or its reader gone)\n" }
        if s.clampedValues > 0 { out += "\(s.clampedValues) values beyond 60 s were counted as 60 s\n" }
        out += "\npercentiles: the nearest-rank value to 3 significant digits (at most 0.1 % above it), within [min, max]; min, max, mean exact; janky = at least one missed vsync\n"
        return out
    }

    /// BASE against NEW: values, change, and a mark on each regression.
    public static func comparison(_ c: ReportComparison, base: String, new: String) -> String {
        var rows: [[String]] = [["metric", "unit", "base", "new", "change", ""]]
        for r in c.rows {
            let mark = r.isRegression ? "REGRESSION" : r.isMissing ? "MISSING" : (r.gated ? "" : "(info)")
            rows.append([r.name, r.unit, optional(r.base, 3), optional(r.new, 3), change(r.changePercent), mark])
        }
        var out = "base  \(OutsideText.escaped(base))\nnew   \(OutsideText.escaped(new))\n\n"
        out += table(rows, rightAligned: [2, 3, 4])
        for note in c.notes { out += "note: \(OutsideText.escaped(note))\n" }
        let regressions = c.regressions
        out += "\n"
        let missing = c.missing
        if !missing.isEmpty {
            func side(_ r: ReportComparison.Row) -> String { r.base == nil && r.new == nil ? "both" : r.base == nil ? "base" : "new" }
            out += "\(missing.count) gated metric\(missing.count == 1 ? "" : "s") missing, so the gate fails: "
            out += missing.map { "\($0.name) (\(side($0)))" }.joined(separator: ", ") + "\n"
        }
        if regressions.isEmpty {
            if !missing.isEmpty { return out }
            out += "no regressions (tolerance \(fixed(c.tolerancePercent, 1)) %)\n"
        } else {
            out += "\(regressions.count) regression\(regressions.count == 1 ? "" : "s") beyond \(fixed(c.tolerancePercent, 1)) %: "
            out += regressions.map(\.name).joined(separator: ", ") + "\n"
        }
        return out
    }

    // MARK: Formatting

    /// Columns padded to their widest cell; the first row is the header.
    static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                if i > 0 { line += "  " }
                line += rightAligned.contains(i) ? pad + cell : cell + pad
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    static func fixed(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf") }
        var b = CSVRowBuffer(capacity: 32)
        b.append(v, decimals: decimals)
        return String(decoding: b.bytes, as: UTF8.self)
    }

    static func ms(_ v: Double) -> String { fixed(v, 3) }
    static func optional(_ v: Double?, _ decimals: Int) -> String { v.map { fixed($0, decimals) } ?? "-" }
    static func percent(_ v: Double?) -> String { v.map { fixed($0, 2) + " %" } ?? "-" }

    static func change(_ v: Double?) -> String {
        guard let v else { return "-" }
        if v.isInfinite { return v > 0 ? "+inf %" : "-inf %" }
        if abs(v) < 0.05 { return "0.0 %" }  // no "+0.0" beside "-0.0" for the same nothing
        return (v >= 0 ? "+" : "") + fixed(v, 1) + " %"
    }
}
