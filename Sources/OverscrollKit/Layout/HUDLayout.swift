/// The frame-time HUD at the bottom right, away from the refresh indicator and the banner:
///
///     57 fps · last frame 16.7 ms      ("at rest · …" when nothing moves and the loop sleeps)
///     99 % of frames within 18.2 ms
///     3 late of the last 120 frames
///     touch to glass 12.4 ms · p95 15.1 ms   (touch, at its kernel time, to the vblank that
///                               showed it: the newest and the 95th percentile over the
///                               graph's frames; "not known" where the path hears nothing
///                               of the screen, "no touch shown" before one)
///     ▂▂▃▂▂▲▂▂▂▂▂▂ ─ 16.7 ms    each frame's time by phase, stacked (input, update, render,
///                               present: frames.svg's colours), 0…2 budgets, against the
///                               budget line; a taller spike is cut and marked at the top
///     ▁▁▂▁▁▃▁▁▁▁▁▁   interval   frame intervals 0…50 ms, late ones (a refresh missed) orange
///                    0–50 ms
///     ■ input ■ update ■ render ■ present
///
/// 304 pt wide at most, so it fits a 320 pt window with 8 pt either side. The figures are
/// worked out from the graph's samples (the last ~2 s of frames); the words are made again
/// only when what they say changes and at most twice a second (digits that change every
/// frame cannot be read), so a frame with the HUD makes no new text in between. Every
/// number carries its unit.
public struct HUDLayout: Sendable, Equatable {
    /// The interval strip's full height, as MangoHud's graph.
    public static let scaleMilliseconds = 50.0
    /// The phase graph's full height, in budgets: the budget line halfway up.
    public static let graphBudgets = 2.0
    public static let width = 304.0, lineHeight = 20.0, graphHeight = 48.0, stripHeight = 40.0, column = 78.0
    /// How often the words may change.
    public static let textPeriod = 0.5

    /// The phases bottom to top, as frames.csv names them and frames.svg draws them, and
    /// their colour (0xRRGGBB): one list for the HUD and the chart.
    public static let phases: [(phase: FramePhase, rgb: UInt32)] = [
        (.input, 0xB0_7C_E8), (.update, 0xF2_B8_4B), (.render, 0x4F_9B_F7), (.present, 0x6E_D3_9A),
    ]

    public private(set) var panel = FillRect(x: 0, y: 0, w: 0, h: 0)
    /// Each phase's bars (in `phases`' order), stacked per frame.
    public private(set) var phaseBars: [[FillRect]] = [[], [], [], []]
    /// A mark at the top of each frame whose phases add up past the graph (cut there).
    public private(set) var clipMarks: [FillRect] = []
    public private(set) var intervalBars: [FillRect] = []
    public private(set) var jankBars: [FillRect] = []
    public private(set) var budgetLine = FillRect(x: 0, y: 0, w: 0, h: 0)
    /// The legend's swatches, in `phases`' order; each word goes at `legendOrigin`.
    public private(set) var legendSwatches: [FillRect] = []
    /// The lines of figures, top to bottom.
    public private(set) var lines = ("", "", "", "")
    /// How many lines of figures there are.
    public static let lineCount = 4
    /// The budget line's label, the interval strip's name and its scale.
    public private(set) var budgetLabel = ""
    public private(set) var stripLabel = "interval"
    public private(set) var stripScaleLabel = "0–50 ms"
    private var scale = 1.0
    private var graphTop = 0.0, stripTop = 0.0, legendTop = 0.0, columnX = 0.0
    /// What the words say now, and when they were made.
    private var said: Figures?
    private var saidAt = -Double.infinity
    /// Kept across frames for the p99: sorted in place, never reallocated once grown.
    private var scratch: [Double] = []

    init() {}

    mutating func update(_ graph: HUDScene, scale s: Double, width: Double, height: Double) {
        scale = s
        let w = min(width - 16, Self.width) * s
        let h = (12 + Double(Self.lineCount) * Self.lineHeight + 4 + Self.graphHeight + 4 + Self.stripHeight + Self.lineHeight) * s
        panel = FillRect(x: width * s - w - 8 * s, y: height * s - h - 8 * s, w: w, h: h)
        columnX = panel.x + panel.w - Self.column * s
        graphTop = panel.y + (6 + Double(Self.lineCount) * Self.lineHeight + 4) * s
        stripTop = graphTop + (Self.graphHeight + 4) * s
        legendTop = stripTop + Self.stripHeight * s
        let graphH = Self.graphHeight * s, stripH = (Self.stripHeight - 4) * s
        let left = panel.x + 8 * s, barsWidth = columnX - 6 * s - left
        let barW = barsWidth / Double(max(1, graph.capacity))
        let graphMs = Self.graphBudgets * graph.refreshPeriod * 1000
        for i in phaseBars.indices { phaseBars[i].removeAll(keepingCapacity: true) }
        clipMarks.removeAll(keepingCapacity: true)
        intervalBars.removeAll(keepingCapacity: true)
        jankBars.removeAll(keepingCapacity: true)
        for (i, sample) in graph.samples.enumerated() {
            let x = left + Double(i) * barW, bw = max(1, barW)
            // Stacked from the bottom; what passes the top is cut there, and marked.
            var below = 0.0
            // A SIMD value, not an array literal: no allocation per bar.
            let phases = SIMD4(sample.input, sample.update, sample.render, sample.present)
            for k in 0..<4 {
                let ms = max(0, phases[k]) * 1000
                let bottom = min(1, below / graphMs), top = min(1, (below + ms) / graphMs)
                below += ms
                guard top > bottom else { continue }
                phaseBars[k].append(FillRect(x: x, y: graphTop + graphH * (1 - top), w: bw, h: graphH * (top - bottom)))
            }
            if below > graphMs { clipMarks.append(FillRect(x: x, y: graphTop - 3 * s, w: bw, h: 3 * s)) }
            let hi = min(1, sample.interval * 1000 / Self.scaleMilliseconds) * stripH
            let bar = FillRect(x: x, y: stripTop + stripH - hi, w: bw, h: hi)
            if sample.janky { jankBars.append(bar) } else { intervalBars.append(bar) }
        }
        budgetLine = FillRect(x: left, y: graphTop + graphH * (1 - 1 / Self.graphBudgets), w: barsWidth, h: max(1, s))
        // The legend: a slot across the panel for each phase, as wide as its name needs
        // (its letters and two for the swatch and the space), a swatch and the name in each.
        let unit = (panel.w - 16 * s) / Double(Self.legendUnits.reduce(0, +))
        legendSwatches.removeAll(keepingCapacity: true)
        var x = left
        for k in Self.phases.indices {
            legendSwatches.append(FillRect(x: x, y: legendTop + (Self.lineHeight / 2 - 3) * s, w: 6 * s, h: 6 * s))
            x += Double(Self.legendUnits[k]) * unit
        }
        let figures = figures(graph)
        // What changes the sense of the words is said at once; a new figure, when its turn comes.
        if said == nil || figures.period != said!.period || figures.idle != said!.idle || figures.janky != said!.janky
            || Self.kind(figures.scanout) != Self.kind(said!.scanout)
            || (figures != said! && graph.time - saidAt >= Self.textPeriod) {
            say(figures, at: graph.time)
        }
    }

    /// Where line `index` (0…3) of the figures begins.
    public func lineOrigin(_ index: Int) -> (x: Double, y: Double) {
        (panel.x + 8 * scale, panel.y + (6 + Double(index) * Self.lineHeight) * scale)
    }

    /// Where the budget's label goes, `labelHeight` pixels tall: in the right-hand column,
    /// centred on the line, kept inside the graph's band.
    public func budgetLabelOrigin(labelHeight: Int32) -> (x: Double, y: Double) {
        let y = budgetLine.y - Double(labelHeight) / 2
        return (columnX, min(max(graphTop, y), graphTop + Self.graphHeight * scale - Double(labelHeight)))
    }

    /// Where the interval strip's name (0) and its scale (1) go, in the right-hand column.
    public func stripLabelOrigin(_ index: Int) -> (x: Double, y: Double) {
        (columnX, stripTop + Double(index) * Self.lineHeight * scale - 2 * scale)
    }

    /// Where phase `index`'s name goes in the legend, right of its swatch.
    public func legendOrigin(_ index: Int) -> (x: Double, y: Double) {
        (legendSwatches[index].x + 9 * scale, legendTop)
    }

    /// The legend slots' widths, in letters: each phase's name and two.
    private static let legendUnits = phases.map { $0.phase.rawValue.count + 2 }

    /// What the words say, in the units they say it in (so equal figures mean equal words).
    struct Figures: Sendable, Equatable {
        var idle: Bool
        var fps: Int
        var lastTenths: Int, p99Tenths: Int
        var janky: Int
        var frames: Int
        var period: Double
        var scanout: Scanout
    }

    /// The touch-to-scanout line's figures: never a guess where the path cannot know.
    enum Scanout: Sendable, Equatable {
        case notKnown
        /// The path knows, but no frame on the graph showed a touch.
        case noTouch
        case shown(lastTenths: Int, p95Tenths: Int)
    }

    private mutating func figures(_ graph: HUDScene) -> Figures {
        let samples = graph.samples
        // Frames per second over the newest second of frames.
        var span = 0.0, frames = 0
        for sample in samples.reversed() where span < 1 {
            span += sample.interval
            frames += 1
        }
        var janky = 0
        for sample in samples where sample.janky { janky += 1 }
        let last = samples.last.map { $0.interval * 1000 } ?? 0
        return Figures(idle: graph.idle, fps: span > 0 ? Int((Double(frames) / span).rounded()) : 0,
                       lastTenths: Int((last * 10).rounded()), p99Tenths: Int((percentile99(samples) * 10).rounded()),
                       janky: janky, frames: samples.count, period: graph.refreshPeriod, scanout: scanout(graph))
    }

    /// The newest touch-to-scanout on the graph and the 95th percentile of those on it
    /// (nearest rank), in tenths of a ms. Reuses `scratch`: allocates nothing once grown.
    private mutating func scanout(_ graph: HUDScene) -> Scanout {
        guard graph.scanoutKnown else { return .notKnown }
        scratch.removeAll(keepingCapacity: true)
        var last: Double?
        for sample in graph.samples {
            guard let value = sample.touchToScanout else { continue }
            scratch.append(value * 1000)
            last = value * 1000
        }
        guard let last else { return .noTouch }
        scratch.sort()
        let rank = Int((0.95 * Double(scratch.count)).rounded(.up))
        return .shown(lastTenths: Int((last * 10).rounded()), p95Tenths: Int((scratch[max(0, rank - 1)] * 10).rounded()))
    }

    /// The 99th percentile of the samples' intervals in ms (nearest rank).
    private mutating func percentile99(_ samples: [FrameProfiler.HUDSample]) -> Double {
        guard !samples.isEmpty else { return 0 }
        scratch.removeAll(keepingCapacity: true)
        for sample in samples { scratch.append(sample.interval * 1000) }
        scratch.sort()
        let rank = Int((0.99 * Double(scratch.count)).rounded(.up))
        return scratch[max(0, rank - 1)]
    }

    private mutating func say(_ f: Figures, at time: Double) {
        said = f
        saidAt = time
        let last = Self.tenths(f.lastTenths), p99 = Self.tenths(f.p99Tenths)
        // Plain words: "at rest" when nothing moves (the loop sleeps after this frame),
        // "late" for a frame that missed a refresh (frames.csv's janky).
        lines = ((f.idle ? "at rest" : "\(f.fps) fps") + " · last frame \(last) ms",
                 "99 % of frames within \(p99) ms",
                 "\(f.janky) late of the last \(f.frames) frames",
                 Self.words(f.scanout))
        budgetLabel = Self.tenths(Int((f.period * 10_000).rounded())) + " ms"
    }

    /// Which of the three things the touch line says.
    private static func kind(_ s: Scanout) -> Int {
        switch s {
        case .notKnown: 0
        case .noTouch: 1
        case .shown: 2
        }
    }

    /// The fourth line: touch (its kernel time, where the input gave one) to the vblank
    /// that showed it, over the graph's frames.
    static func words(_ s: Scanout) -> String {
        switch s {
        case .notKnown: "touch to glass: not known here"
        case .noTouch: "touch to glass: no touch shown"
        case let .shown(last, p95): "touch to glass \(tenths(last)) ms · p95 \(tenths(p95)) ms"
        }
    }

    /// "16.7" from 167.
    static func tenths(_ n: Int) -> String { "\(n / 10).\(abs(n % 10))" }

    public static func == (a: HUDLayout, b: HUDLayout) -> Bool {
        a.panel == b.panel && a.phaseBars == b.phaseBars && a.clipMarks == b.clipMarks && a.intervalBars == b.intervalBars
            && a.jankBars == b.jankBars && a.budgetLine == b.budgetLine && a.lines == b.lines && a.budgetLabel == b.budgetLabel
            && a.legendSwatches == b.legendSwatches
    }
}
