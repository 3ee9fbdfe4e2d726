/// The frame-time HUD at the bottom right, away from the refresh indicator and the banner:
///
///     60 fps · last 16.7 ms          (or "idle · last 16.7 ms" while the loop sleeps)
///     last 2 s: p99 18.2 ms
///     janky 3 in last 2 s
///     ▂▂▃▂▂█▂▂▂▂▂▂ ─ 16.7       interval bars 0…50 ms (janky ones orange), the budget
///     ▁▁▂▁▁▃▁▁▁▁▁▁   cpu        line labelled with its value; CPU time below on its own
///                    5 ms       scale (a round figure above the largest), named with it
///
/// 304 pt wide at most, so it fits a 320 pt window with 8 pt either side. The figures are
/// worked out from the graph's samples (the last ~2 s); the words are made again only when
/// what they say changes and at most twice a second (digits that change every frame cannot
/// be read), so a frame with the HUD makes no new text in between.
public struct HUDLayout: Sendable, Equatable {
    /// The interval bars' full height, as MangoHud's graph.
    public static let scaleMilliseconds = 50.0
    public static let width = 304.0, lineHeight = 20.0, graphHeight = 48.0, cpuHeight = 40.0, column = 52.0
    /// How often the words may change.
    public static let textPeriod = 0.5

    public private(set) var panel = FillRect(x: 0, y: 0, w: 0, h: 0)
    public private(set) var intervalBars: [FillRect] = []
    public private(set) var jankBars: [FillRect] = []
    public private(set) var cpuBars: [FillRect] = []
    public private(set) var budgetLine = FillRect(x: 0, y: 0, w: 0, h: 0)
    /// The three lines of figures, top to bottom.
    public private(set) var lines = ("", "", "")
    /// The budget line's label, the CPU strip's name and its scale.
    public private(set) var budgetLabel = ""
    public private(set) var cpuLabel = "cpu"
    public private(set) var cpuScaleLabel = ""
    /// The CPU strip's full height, in milliseconds.
    public private(set) var cpuScaleMilliseconds = 1.0
    private var scale = 1.0
    private var graphTop = 0.0, cpuTop = 0.0, columnX = 0.0
    /// What the words say now, and when they were made.
    private var said: Figures?
    private var saidAt = -Double.infinity
    /// Kept across frames for the p99: sorted in place, never reallocated once grown.
    private var scratch: [Double] = []

    init() {}

    mutating func update(_ graph: HUDScene, scale s: Double, width: Double, height: Double) {
        scale = s
        let w = min(width - 16, Self.width) * s
        let h = (12 + 3 * Self.lineHeight + 4 + Self.graphHeight + 4 + Self.cpuHeight) * s
        panel = FillRect(x: width * s - w - 8 * s, y: height * s - h - 8 * s, w: w, h: h)
        columnX = panel.x + panel.w - Self.column * s
        graphTop = panel.y + (6 + 3 * Self.lineHeight + 4) * s
        cpuTop = graphTop + (Self.graphHeight + 4) * s
        let graphH = Self.graphHeight * s, cpuH = (Self.cpuHeight - 4) * s
        let left = panel.x + 8 * s, barsWidth = columnX - 6 * s - left
        let barW = barsWidth / Double(max(1, graph.capacity))
        let maxMs = Self.scaleMilliseconds
        // CPU on its own scale: 1, 2 or 5 times a power of ten above the window's largest.
        var cpuMax = 0.0
        for sample in graph.samples { cpuMax = max(cpuMax, sample.cpu * 1000) }
        let cpuScale = Self.roundUp(cpuMax)
        intervalBars.removeAll(keepingCapacity: true)
        cpuBars.removeAll(keepingCapacity: true)
        jankBars.removeAll(keepingCapacity: true)
        for (i, sample) in graph.samples.enumerated() {
            let x = left + Double(i) * barW
            let hi = min(1, sample.interval * 1000 / maxMs) * graphH
            let hc = min(1, sample.cpu * 1000 / cpuScale) * cpuH
            let bar = FillRect(x: x, y: graphTop + graphH - hi, w: max(1, barW), h: hi)
            if sample.janky { jankBars.append(bar) } else { intervalBars.append(bar) }
            cpuBars.append(FillRect(x: x, y: cpuTop + cpuH - hc, w: max(1, barW), h: hc))
        }
        let budgetY = graphTop + graphH - min(1, graph.refreshPeriod * 1000 / maxMs) * graphH
        budgetLine = FillRect(x: left, y: budgetY, w: barsWidth, h: max(1, s))
        let figures = figures(graph, cpuScale: cpuScale)
        if said == nil || figures.cpuScale != said!.cpuScale || figures.period != said!.period
            || figures.idle != said!.idle || figures.janky != said!.janky
            || (figures != said! && graph.time - saidAt >= Self.textPeriod) {
            say(figures, at: graph.time)
        }
    }

    /// Where line `index` (0…2) of the figures begins.
    public func lineOrigin(_ index: Int) -> (x: Double, y: Double) {
        (panel.x + 8 * scale, panel.y + (6 + Double(index) * Self.lineHeight) * scale)
    }

    /// Where the budget's label goes, `labelHeight` pixels tall: in the right-hand column,
    /// centred on the line, kept inside the graph's band.
    public func budgetLabelOrigin(labelHeight: Int32) -> (x: Double, y: Double) {
        let y = budgetLine.y - Double(labelHeight) / 2
        return (columnX, min(max(graphTop, y), graphTop + Self.graphHeight * scale - Double(labelHeight)))
    }

    /// Where the CPU strip's name (0) and its scale (1) go, in the right-hand column.
    public func cpuLabelOrigin(_ index: Int) -> (x: Double, y: Double) {
        (columnX, cpuTop + Double(index) * Self.lineHeight * scale - 2 * scale)
    }

    /// What the words say, in the units they say it in (so equal figures mean equal words).
    struct Figures: Sendable, Equatable {
        var idle: Bool
        var fps: Int
        var lastTenths: Int, p99Tenths: Int
        var janky: Int
        var window: Int
        var period: Double
        var cpuScale: Double
    }

    private mutating func figures(_ graph: HUDScene, cpuScale: Double) -> Figures {
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
                       janky: janky, window: Int((Double(graph.capacity) * graph.refreshPeriod).rounded()),
                       period: graph.refreshPeriod, cpuScale: cpuScale)
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
        lines = ((f.idle ? "idle" : "\(f.fps) fps") + " · last \(last) ms",
                 "last \(f.window) s: p99 \(p99) ms",
                 "janky \(f.janky) in last \(f.window) s")
        budgetLabel = Self.tenths(Int((f.period * 10_000).rounded()))
        cpuScaleLabel = (f.cpuScale < 1 ? Self.tenths(Int((f.cpuScale * 10).rounded())) : String(Int(f.cpuScale))) + " ms"
    }

    /// "16.7" from 167.
    static func tenths(_ n: Int) -> String { "\(n / 10).\(abs(n % 10))" }

    /// The first of 0.5, 1, 2, 5, 10, 20, 50… ms that is at least `ms` (at most 10 s).
    static func roundUp(_ ms: Double) -> Double {
        var step = 0.5, k = 0
        while step < ms && step < 10_000 {
            step *= k % 3 == 2 ? 2.5 : 2
            k += 1
        }
        return step
    }

    public static func == (a: HUDLayout, b: HUDLayout) -> Bool {
        a.panel == b.panel && a.intervalBars == b.intervalBars && a.jankBars == b.jankBars && a.cpuBars == b.cpuBars
            && a.budgetLine == b.budgetLine && a.lines == b.lines && a.budgetLabel == b.budgetLabel
            && a.cpuScaleLabel == b.cpuScaleLabel
    }
}
