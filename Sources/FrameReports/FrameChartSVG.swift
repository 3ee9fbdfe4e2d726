import OverscrollKit
import FoundationEssentials
import Glibc

/// frames.svg: frame interval over the run against the budget line, janky frames marked,
/// CPU time in a panel of its own below (on its own scale: it is a fraction of the
/// interval and would lie flat on the axis), the UI states as background bands, and the
/// run's key numbers in the header. Standalone SVG: opens in any browser, no scripts.
///
/// A replay's intervals are fixed (its clock is virtual: every frame is one period after
/// the last), so a line of them says nothing: there the main panel shows what varies,
/// each frame's time by phase, stacked (input, update, render, present, in the HUD's
/// colours), and the chart says that the intervals are fixed.
enum FrameChartSVG {
    static let fileName = "frames.svg"

    /// The run's key numbers, for the header line.
    struct Numbers {
        var frames: Int
        /// Frame interval percentiles, ms.
        var p50: Double?
        var p99: Double?
        var janky: Int
    }

    private static let width = 1000.0
    private static let height = 600.0
    /// The right margin holds the budget's label, beside its line and off the data.
    private static let left = 64.0, right = 116.0, top = 84.0, bottom = 110.0
    /// The CPU panel's height, under the interval's, and the space between them.
    private static let cpuPanel = 90.0, panelGap = 40.0

    private static func color(_ state: UIState) -> String {
        switch state {
        case .idle: "#f2f2f2"
        case .dragging: "#cfe3ff"
        case .overscrolled: "#ffd9b3"
        case .momentum: "#d4f2d4"
        case .refreshing: "#e6d4f7"
        }
    }

    /// - Parameters:
    ///   - title: the first line (what ran, in which mode).
    ///   - subtitle: the second (window size, drivers, frames).
    static func render(_ timeline: TimelineDownsampler, refreshPeriod: Double, title: String, subtitle: String = "",
                       numbers: Numbers? = nil, fixedIntervals: Bool = false) -> String {
        let scales = Scales(timeline, refreshPeriod: refreshPeriod, fixedIntervals: fixedIntervals)
        var svg = ""
        header(scales, title: title, subtitle: subtitle, numbers: numbers, into: &svg)
        let bands = stateBands(scales, into: &svg)
        axes(scales, into: &svg)
        series(scales, into: &svg)
        budgetAndJanky(scales, into: &svg)
        legend(scales, bands: bands, into: &svg)
        svg += "</svg>\n"
        return svg
    }

    /// Where the chart puts a time and a value: the panels' geometry and scales, from the
    /// run's timeline.
    struct Scales {
        let timeline: TimelineDownsampler
        let fixedIntervals: Bool
        let plotW: Double, plotH: Double, cpuTop: Double, bottomY: Double
        let origin: Double, duration: Double, periodMs: Double
        /// The largest interval and CPU time seen, ms; the time nothing was drawn, s.
        let observedMax: Double, idle: Double
        let cpuMax: Double, yMax: Double

        init(_ timeline: TimelineDownsampler, refreshPeriod: Double, fixedIntervals: Bool) {
            self.timeline = timeline
            self.fixedIntervals = fixedIntervals
            plotW = width - left - right
            plotH = height - top - bottom - cpuPanel - panelGap
            cpuTop = top + plotH + panelGap
            bottomY = cpuTop + cpuPanel
            // The x-axis is the run's own clock (frames.csv's t_ms), from the first frame's
            // start to the last frame: time when nothing was drawn stays on it, as a gap.
            origin = timeline.origin
            duration = max(timeline.end - origin, 1e-3)
            periodMs = refreshPeriod * 1000
            var observedMax = 0.0, cpuObservedMax = 0.0, idle = 0.0, phaseMax = 0.0
            timeline.forEach { b in
                phaseMax = max(phaseMax, b.phaseMeans.sum() * 1000)
                observedMax = max(observedMax, b.intervalMax * 1000)
                cpuObservedMax = max(cpuObservedMax, b.cpuMax * 1000)
                if !b.isDrawn { idle += max(0, min(b.end, timeline.end) - b.start) }
            }
            self.observedMax = observedMax
            self.idle = idle
            cpuMax = niceCeiling(max(cpuObservedMax, 0.1) * 1.05)
            // Show spikes up to 8 budgets high; above that they are clipped (and said so), so
            // one multi-second stall does not flatten everything else to the axis.
            // A replay's panel is the phases' own: its scale is theirs, not the budget's.
            yMax = fixedIntervals ? niceCeiling(max(phaseMax, 0.01) * 1.05)
                : niceCeiling(max(2 * periodMs, min(observedMax, 8 * periodMs)) * 1.05)
        }

        var clipped: Bool { !fixedIntervals && observedMax > yMax }
        /// The budget line is drawn (on a replay's phase panel, only when in its range).
        var showsBudget: Bool { !fixedIntervals || periodMs <= yMax }
        func x(_ seconds: Double) -> Double { left + plotW * min(max((seconds - origin) / duration, 0), 1) }
        func y(_ ms: Double) -> Double { top + plotH * (1 - min(max(ms / yMax, 0), 1)) }
        func cpuY(_ ms: Double) -> Double { cpuTop + cpuPanel * (1 - min(max(ms / cpuMax, 0), 1)) }
    }

    /// The document's head, the title lines and the run's key numbers.
    private static func header(_ s: Scales, title: String, subtitle: String, numbers: Numbers?, into svg: inout String) {
        svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<title>\(escape(title))</title>\n"
        svg += "<desc>x: run time \(FixedDecimal.format(s.origin, decimals: 3))…\(FixedDecimal.format(s.origin + s.duration, decimals: 3)) s (frames.csv's t_ms / 1000); y: \(s.fixedIntervals ? "time per frame by phase" : "frame time") 0…\(label(s.yMax)) ms</desc>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text id=\"chart-title\" x=\"\(f(left))\" y=\"22\" font-size=\"15\">\(escape(title))</text>\n"
        svg += "<text id=\"chart-subtitle\" x=\"\(f(left))\" y=\"42\" fill=\"#444\">\(escape(subtitle))</text>\n"
        if let n = numbers {
            var line = "\(n.frames) frames"
            if let p50 = n.p50, let p99 = n.p99 { line += " · interval p50 \(ReportText.fixed(p50, 1)) ms, p99 \(ReportText.fixed(p99, 1)) ms" }
            line += " · \(n.janky) janky · idle \(ReportText.fixed(s.idle, 1)) s (nothing drawn)"
            svg += "<text id=\"chart-numbers\" x=\"\(f(left))\" y=\"64\" font-size=\"14\" font-weight=\"bold\">\(escape(line))</text>\n"
        }
    }

    /// The states that got a band, and how many gaps ended one: the legend lists them.
    struct Bands {
        var statesSeen = Set<UIState>()
        var gaps = 0
    }

    /// State bands: runs of drawn buckets with the same dominant state become one
    /// rectangle; a gap (nothing drawn) ends a band and stays white.
    private static func stateBands(_ s: Scales, into svg: inout String) -> Bands {
        svg += "<g id=\"states\">\n"
        var bands = Bands()
        var bandStart = 0.0, bandState: UIState? = nil, bandEnd = 0.0
        func closeBand() {
            guard let state = bandState else { return }
            bands.statesSeen.insert(state)
            svg += "<rect x=\"\(f(s.x(bandStart)))\" y=\"\(f(top))\" width=\"\(f(max(s.x(bandEnd) - s.x(bandStart), 0.5)))\" height=\"\(f(s.cpuTop + cpuPanel - top))\" fill=\"\(color(state))\"><title>\(state.rawValue)</title></rect>\n"
            bandState = nil
        }
        s.timeline.forEach { b in
            guard b.isDrawn else {
                if bandState != nil { bands.gaps += 1 }
                closeBand()
                return
            }
            // A bucket inside a long frame holds no frame of its own: it continues the band.
            let state = b.frames > 0 ? b.dominantState : (bandState ?? .idle)
            if state != bandState { closeBand(); bandState = state; bandStart = b.start }
            bandEnd = min(b.end, s.timeline.end)
        }
        closeBand()
        svg += "</g>\n"
        return bands
    }

    /// Axes and grid; the time ticks are the run's own seconds.
    private static func axes(_ s: Scales, into svg: inout String) {
        svg += "<g id=\"axes\" stroke=\"#999\" stroke-width=\"1\">\n"
        for tick in ticks(upTo: s.yMax) {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(s.y(tick)))\" x2=\"\(f(left + s.plotW))\" y2=\"\(f(s.y(tick)))\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(s.y(tick) + 4))\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">\(label(tick))</text>\n"
        }
        // About ten time ticks, at 1, 2 or 5 × 10^k s, under the CPU panel.
        let bottomY = s.bottomY
        for tick in ticks(from: s.origin, to: s.origin + s.duration, about: 10) {
            svg += "<line x1=\"\(f(s.x(tick)))\" y1=\"\(f(bottomY))\" x2=\"\(f(s.x(tick)))\" y2=\"\(f(bottomY + 5))\"/>\n"
            svg += "<line x1=\"\(f(s.x(tick)))\" y1=\"\(f(top))\" x2=\"\(f(s.x(tick)))\" y2=\"\(f(bottomY))\" stroke=\"#eee\"/>\n"
            svg += "<text x=\"\(f(s.x(tick)))\" y=\"\(f(bottomY + 18))\" text-anchor=\"middle\" stroke=\"none\" fill=\"#333\">\(label(tick))</text>\n"
        }
        for tick in ticks(from: 0, to: s.cpuMax, about: 2) {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(s.cpuY(tick)))\" x2=\"\(f(left + s.plotW))\" y2=\"\(f(s.cpuY(tick)))\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(s.cpuY(tick) + 4))\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">\(label(tick))</text>\n"
        }
        for (panelTop, panelBottom) in [(top, top + s.plotH), (s.cpuTop, bottomY)] {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(panelTop))\" x2=\"\(f(left))\" y2=\"\(f(panelBottom))\"/>\n"
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(panelBottom))\" x2=\"\(f(left + s.plotW))\" y2=\"\(f(panelBottom))\"/>\n"
        }
        svg += "</g>\n"
        svg += "<text x=\"\(f(left + s.plotW / 2))\" y=\"\(f(bottomY + 36))\" text-anchor=\"middle\">run time (s), frames.csv's t_ms</text>\n"
        svg += "<text transform=\"translate(18 \(f(top + s.plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(s.fixedIntervals ? "time by phase (ms)" : "frame time (ms)")</text>\n"
        svg += "<text id=\"cpu-label\" transform=\"translate(18 \(f(s.cpuTop + cpuPanel / 2))) rotate(-90)\" text-anchor=\"middle\" fill=\"#2a9d3a\">CPU (ms)</text>\n"
    }

    /// The series' points, one list per run of drawn buckets (a gap breaks every series).
    struct Polylines {
        var envelopes: [String] = [], intervalLines: [String] = [], cpuLines: [String] = []
        /// A replay's phases: per phase, the band between the phases below and itself.
        var phaseAreas: [[String]] = [[], [], [], []]
    }

    /// Interval: the min–max envelope of each bucket (spikes stay visible however much
    /// the run was downsampled), then the means of interval and CPU, each bucket a step
    /// across its slice of time. A gap breaks every series.
    private static func polylines(_ s: Scales) -> Polylines {
        var lines = Polylines()
        var upper: [String] = [], lower: [String] = [], intervalLine: [String] = [], cpuLine: [String] = []
        var phaseTops: [[String]] = [[], [], [], [], []]
        func closeSegment() {
            if !upper.isEmpty {
                lines.envelopes.append((upper + lower.reversed()).joined(separator: " "))
                lines.intervalLines.append(intervalLine.joined(separator: " "))
                lines.cpuLines.append(cpuLine.joined(separator: " "))
                for k in 0..<4 { lines.phaseAreas[k].append((phaseTops[k + 1] + phaseTops[k].reversed()).joined(separator: " ")) }
            }
            upper.removeAll(); lower.removeAll(); intervalLine.removeAll(); cpuLine.removeAll()
            for k in 0..<5 { phaseTops[k].removeAll() }
        }
        s.timeline.forEach { b in
            guard b.isDrawn else { closeSegment(); return }
            guard b.frames > 0 else { return }
            let x0 = f(s.x(b.start)), x1 = f(s.x(min(b.end, s.timeline.end)))
            for xs in [x0, x1] {
                upper.append("\(xs),\(f(s.y(b.intervalMax * 1000)))")
                lower.append("\(xs),\(f(s.y(b.intervalMin * 1000)))")
                intervalLine.append("\(xs),\(f(s.y(b.intervalMean * 1000)))")
                cpuLine.append("\(xs),\(f(s.cpuY(b.cpuMean * 1000)))")
                var stacked = 0.0
                phaseTops[0].append("\(xs),\(f(s.y(0)))")
                for k in 0..<4 {
                    stacked += b.phaseMeans[k] * 1000
                    phaseTops[k + 1].append("\(xs),\(f(s.y(stacked)))")
                }
            }
        }
        closeSegment()
        return lines
    }

    /// The main panel's data (a replay's phases, or the interval's band and mean) and the
    /// CPU panel's line.
    private static func series(_ s: Scales, into svg: inout String) {
        let lines = polylines(s)
        if s.fixedIntervals {
            for (k, phase) in HUDLayout.phases.enumerated() {
                svg += "<g id=\"phase-\(phase.phase.rawValue)\" fill=\"\(hex(phase.rgb))\" stroke=\"none\">\n"
                for a in lines.phaseAreas[k] { svg += "<polygon points=\"\(a)\"/>\n" }
                svg += "</g>\n"
            }
            svg += "<text id=\"intervals-fixed\" x=\"\(f(left + 8))\" y=\"\(f(top + 16))\" fill=\"#333\">intervals fixed at \(ReportText.fixed(s.periodMs, 2)) ms: a replay's clock is virtual, so the panel shows each frame's time by phase (mean per \(label(s.timeline.bucketSeconds * 1000)) ms)</text>\n"
        } else {
            svg += "<g id=\"interval-range\" fill=\"#1f5fbf\" fill-opacity=\"0.25\" stroke=\"#1f5fbf\" stroke-opacity=\"0.4\" stroke-width=\"0.5\">\n"
            for e in lines.envelopes { svg += "<polygon points=\"\(e)\"/>\n" }
            svg += "</g>\n<g id=\"interval\" fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.5\">\n"
            for l in lines.intervalLines { svg += "<polyline points=\"\(l)\"/>\n" }
            svg += "</g>\n"
        }
        svg += "<g id=\"cpu\" fill=\"none\" stroke=\"#2a9d3a\" stroke-width=\"1.2\">\n"
        for l in lines.cpuLines { svg += "<polyline points=\"\(l)\"/>\n" }
        svg += "</g>\n"
    }

    /// The budget last, above the data; then a mark above the plot at each bucket that
    /// holds a janky frame (trace.json has each frame; here the eye needs to find them at a
    /// glance).
    private static func budgetAndJanky(_ s: Scales, into svg: inout String) {
        if s.showsBudget {
            svg += "<line id=\"budget\" x1=\"\(f(left))\" y1=\"\(f(s.y(s.periodMs)))\" x2=\"\(f(left + s.plotW))\" y2=\"\(f(s.y(s.periodMs)))\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"8 5\"/>\n"
            svg += "<text id=\"budget-label\" x=\"\(f(left + s.plotW + 6))\" y=\"\(f(s.y(s.periodMs) + 4))\" fill=\"#d62728\">budget \(ReportText.fixed(s.periodMs, 2)) ms</text>\n"
        }
        svg += "<g id=\"janky\" fill=\"#d62728\">\n"
        s.timeline.forEach { b in
            guard b.jankyFrames > 0 else { return }
            let cx = s.x((b.start + min(b.end, s.timeline.end)) / 2)
            svg += "<path d=\"M\(f(cx - 5)),\(f(top - 10)) L\(f(cx + 5)),\(f(top - 10)) L\(f(cx)),\(f(top - 2)) Z\"><title>\(b.jankyFrames) janky at \(label(b.start)) s</title></path>\n"
        }
        svg += "</g>\n"
    }

    /// Legend: the series on one row, the states that appear on the next, so it fits
    /// whatever the viewer's font; then the clipping note and the footer.
    private static func legend(_ s: Scales, bands: Bands, into svg: inout String) {
        var lx = left
        var ly = height - 52
        func legend(_ swatch: String, _ text: String) {
            svg += "<g transform=\"translate(\(f(lx)) \(f(ly)))\">\(swatch)<text x=\"22\" y=\"4\">\(escape(text))</text></g>\n"
            lx += 22 + Double(text.count) * 7 + 18
        }
        if s.fixedIntervals {
            for phase in HUDLayout.phases {
                legend("<rect x=\"0\" y=\"-6\" width=\"16\" height=\"12\" fill=\"\(hex(phase.rgb))\"/>", phase.phase.rawValue)
            }
        } else {
            legend("<line x1=\"0\" y1=\"0\" x2=\"16\" y2=\"0\" stroke=\"#1f5fbf\" stroke-width=\"2\"/>", "interval (mean; band = min–max)")
        }
        legend("<line x1=\"0\" y1=\"0\" x2=\"16\" y2=\"0\" stroke=\"#2a9d3a\" stroke-width=\"2\"/>", "cpu (mean, own scale)")
        legend("<path d=\"M3,-5 L13,-5 L8,3 Z\" fill=\"#d62728\"/>", "janky frame")
        if s.showsBudget {
            legend("<line x1=\"0\" y1=\"0\" x2=\"16\" y2=\"0\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>", "budget \(ReportText.fixed(s.periodMs, 2)) ms")
        }
        lx = left
        ly += 22
        for state in UIState.allCases where bands.statesSeen.contains(state) {
            legend("<rect x=\"0\" y=\"-6\" width=\"16\" height=\"12\" fill=\"\(color(state))\" stroke=\"#bbb\"/>", state.rawValue)
        }
        if bands.gaps > 0 {
            legend("<rect x=\"0\" y=\"-6\" width=\"16\" height=\"12\" fill=\"white\" stroke=\"#bbb\"/>", "gap: nothing drawn (idle)")
        }
        if s.clipped {
            svg += "<text x=\"\(f(left + s.plotW))\" y=\"\(f(top - 6))\" text-anchor=\"end\" fill=\"#d62728\">values above \(label(s.yMax)) ms clipped (max \(label(s.observedMax)) ms)</text>\n"
        }
        svg += "<text x=\"\(f(left))\" y=\"\(f(height - 8))\" fill=\"#666\" font-size=\"10\">\(s.timeline.frames) frames in \(s.timeline.count) buckets of \(label(s.timeline.bucketSeconds * 1000)) ms</text>\n"
    }

    /// 1, 2 or 5 × 10^k at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 5, 10] where step * magnitude >= value * 0.999_999 { return step * magnitude }
        return 10 * magnitude
    }

    /// About five round-numbered ticks from 0 to `limit`.
    static func ticks(upTo limit: Double) -> [Double] { ticks(from: 0, to: limit) }

    /// About five round-numbered ticks within `low…high`, at multiples of the step.
    static func ticks(from low: Double, to high: Double, about count: Double = 5) -> [Double] {
        let span = high - low
        guard span > 0, span.isFinite, low.isFinite else { return [low] }
        let step = niceCeiling(span / count)
        var out: [Double] = []
        var i = (low / step).rounded(.up)
        while i * step <= high + span * 1e-6 && out.count < 50 { out.append(i * step); i += 1 }
        return out
    }

    private static func f(_ v: Double) -> String { FixedDecimal.format(v, decimals: 1) }

    /// "#b07ce8" from 0xB07CE8.
    static func hex(_ rgb: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return "#" + String((0..<6).map { digits[Int(rgb >> UInt32(20 - 4 * $0) & 0xF)] })
    }

    private static func label(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : FixedDecimal.format(v, decimals: v < 10 ? 2 : 1)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
